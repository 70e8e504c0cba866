"""Plain data the fake keeps: snowflakes, API errors, injected faults, recorded requests."""

from __future__ import annotations

import datetime as dt
import itertools
import re
import threading
import time
from dataclasses import dataclass, field
from typing import Any

JsonDict = dict[str, Any]

DISCORD_EPOCH_MS = 1_420_070_400_000


class ApiError(Exception):
    """A REST answer with Discord's error body, raised inside a route handler."""

    def __init__(
        self, *, status: int, code: int, message: str, errors: JsonDict | None = None
    ) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status, self.code, self.message, self.errors = status, code, message, errors

    def body(self) -> JsonDict:
        """The JSON Discord answers: message and code, plus errors for form errors."""
        body: JsonDict = {"message": self.message, "code": self.code}
        if self.errors is not None:
            body["errors"] = self.errors
        return body


def unknown(*, what: str, code: int) -> ApiError:
    """Discord's 404 for an id it does not know (Unknown Channel, Unknown Message...)."""
    return ApiError(status=404, code=code, message=f"Unknown {what}")


class Snowflakes:
    """Fresh snowflake ids, strictly increasing, stamped with the current time."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._last = 0
        self._increment = itertools.count()

    def next(self) -> str:
        """A new id (a decimal string, as Discord sends them)."""
        with self._lock:
            stamp = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
            # The low 12 bits are Discord's per-process increment; max() keeps ids unique
            # when two are made in the same millisecond.
            value = max(stamp | (next(self._increment) & 0xFFF), self._last + 1)
            self._last = value
            return str(value)


def snowflake_time(snowflake: str | int) -> str:
    """The ISO-8601 timestamp a snowflake encodes, in Discord's format."""
    ms = (int(snowflake) >> 22) + DISCORD_EPOCH_MS
    return iso(ms / 1000)


def iso(seconds: float | None = None) -> str:
    """An ISO-8601 UTC timestamp with microseconds and +00:00, as Discord writes them."""
    stamp = time.time() if seconds is None else seconds
    return dt.datetime.fromtimestamp(stamp, dt.UTC).isoformat(timespec="microseconds")


def path_pattern(*, template: str) -> re.Pattern[str]:
    """A regex for a route template such as /channels/{id}/messages ({x} is one segment)."""
    parts = re.split(r"(\{[^}]*\})", template)
    regex = "".join("[^/]+" if p.startswith("{") else re.escape(p) for p in parts)
    return re.compile(f"^{regex}$")


@dataclass
class Failure:
    """One injected fault: a status (429 or 5xx), Discord's code/message, how many times."""

    method: str
    pattern: re.Pattern[str]
    status: int
    retry_after: float
    is_global: bool
    code: int
    message: str
    remaining: int


@dataclass(frozen=True)
class RecordedRequest:
    """One REST request the fake received, with what it answered."""

    method: str
    path: str
    query: dict[str, str]
    json: Any
    headers: dict[str, str]
    status: int
    response: Any
    files: list[JsonDict] = field(default_factory=list)

    @property
    def authorization(self) -> str | None:
        """The Authorization header ("Bot <token>"), if any."""
        return self.headers.get("Authorization")

    def matches(self, *, method: str | None, path: str | None) -> bool:
        """Whether this request has the method and a path matching a template or exact path."""
        if method is not None and self.method != method.upper():
            return False
        return path is None or bool(path_pattern(template=path).match(self.path))
