"""Per-route rate limits as Discord answers them: X-RateLimit-* headers on every answer, and
limits a test enforces, answered with 429 once a bucket is used up.

Discord keys a bucket by its route (the path with its ids as placeholders) and the route's
major parameter (the channel, guild or webhook id): two channels never share a budget. It
says which bucket an answer counted against in X-RateLimit-Bucket (the same hash for every
channel) and how much is left; discord.py waits before the next request when Remaining says
0, and waits out a 429's retry_after otherwise.
(https://discord.com/developers/docs/topics/rate-limits)
"""

from __future__ import annotations

import hashlib
import math
import re
import threading
import time
from dataclasses import dataclass, field

from .model import JsonDict, path_pattern

MAJOR = ("channels", "guilds", "webhooks")
ID = re.compile(r"^[0-9]{15,20}$")
# What an answer says when no test enforces a limit: plenty left, so discord.py never waits.
PLENTY = 50


def route_of(*, path: str) -> tuple[str, str]:
    """(route template, major id) of a request path: /channels/1/messages/2/reactions/👍 is
    ("/channels/{major}/messages/{id}/reactions/{emoji}", "1")."""
    parts = path.strip("/").split("/")
    major = ""
    template = []
    for index, part in enumerate(parts):
        previous = parts[index - 1] if index else ""
        if index == 1 and previous in MAJOR:
            major, part = part, "{major}"
        elif previous == "reactions":
            part = "{emoji}"
        elif ID.match(part):
            part = "{id}"
        template.append(part)
    return "/" + "/".join(template), major


def bucket_hash(*, method: str, template: str) -> str:
    """The opaque X-RateLimit-Bucket of a route (one per method and template)."""
    return hashlib.sha256(f"{method} {template}".encode()).hexdigest()[:16]


@dataclass
class Limit:
    """An enforced limit: `limit` requests per `per` seconds, on each major id's bucket."""

    method: str
    pattern: re.Pattern[str]
    limit: int
    per: float
    windows: dict[str, tuple[float, int]] = field(default_factory=dict)  # bucket -> start, used


@dataclass(frozen=True)
class Verdict:
    """What the middleware does with one request: its headers, and a 429 body when refused."""

    headers: dict[str, str]
    refused: JsonDict | None = None


class RateLimits:
    """The enforced limits (none by default) and the headers every answer carries."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._limits: list[Limit] = []
        self.refused = 0  # 429s answered so far

    def enforce(self, *, method: str, path: str, limit: int, per: float) -> None:
        """From now on, `limit` requests per `per` seconds on the routes matching `path` (a
        template such as /channels/{c}/messages/{m}/reactions/{e}), per channel."""
        with self._lock:
            self._limits.append(
                Limit(
                    method=method.upper(),
                    pattern=path_pattern(template=path),
                    limit=limit,
                    per=per,
                )
            )

    def _limit_for(self, *, method: str, path: str) -> Limit | None:
        """The newest enforced limit matching a request."""
        for limit in reversed(self._limits):
            if limit.method == method and limit.pattern.match(path):
                return limit
        return None

    def take(self, *, method: str, path: str) -> Verdict:
        """Count one request against its bucket -> its headers, and a 429 when none is left."""
        template, major = route_of(path=path)
        bucket = bucket_hash(method=method, template=template)
        now = time.monotonic()
        with self._lock:
            limit = self._limit_for(method=method, path=path)
            if limit is None:
                return Verdict(
                    headers=_headers(bucket=bucket, limit=PLENTY, left=PLENTY - 1, reset_after=1.0)
                )
            start, used = limit.windows.get(major, (now, 0))
            if now - start >= limit.per:
                start, used = now, 0
            reset_after = max(0.001, start + limit.per - now)
            if used >= limit.limit:
                self.refused += 1
                headers = _headers(
                    bucket=bucket, limit=limit.limit, left=0, reset_after=reset_after
                )
                headers.update(
                    {
                        "Retry-After": str(max(1, math.ceil(reset_after))),
                        "X-RateLimit-Scope": "user",
                    }
                )
                body = {
                    "message": "You are being rate limited.",
                    "retry_after": round(reset_after, 3),
                    "global": False,
                }
                return Verdict(headers=headers, refused=body)
            limit.windows[major] = (start, used + 1)
            left = limit.limit - used - 1
            return Verdict(
                headers=_headers(
                    bucket=bucket, limit=limit.limit, left=left, reset_after=reset_after
                )
            )


def _headers(*, bucket: str, limit: int, left: int, reset_after: float) -> dict[str, str]:
    """The X-RateLimit-* headers of one answer."""
    return {
        "X-RateLimit-Limit": str(limit),
        "X-RateLimit-Remaining": str(left),
        "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
        "X-RateLimit-Reset-After": f"{reset_after:.3f}",
        "X-RateLimit-Bucket": bucket,
    }
