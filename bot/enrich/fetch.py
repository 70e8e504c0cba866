"""GETs to arXiv and Crossref as their published limits ask: one request every few seconds
per service (arXiv: three), a descriptive User-Agent, Retry-After honoured, answers cached;
each request bounded as a whole by the timeout, and kept on the host asked (bot.lookup).

The pace is kept per service by one lock-guarded clock, so a burst of papers (or several
threads) never asks faster. A service that cannot be reached is said once; the caller skips it
for the rest of the run.
"""

from __future__ import annotations

import hashlib
import http.client
import logging
import threading
import time
import urllib.error
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

from bot.lookup import get_within
from bot.outbound.failure import failure

log = logging.getLogger(__name__)
T = TypeVar("T")

# Seconds between two requests to one service: arXiv's API terms ask for three; Crossref's
# polite pool allows far more, one a second is plenty for a reading list.
PACE = {"arxiv": 3.0, "crossref": 1.0}
NAMES = {"arxiv": "arXiv", "crossref": "Crossref"}
RETRY_AFTER_MAX = 60.0
BODY_MAX = 4_000_000


class Unreachable(Exception):
    """The service could not be asked (no network, a timeout, a server error after retries)."""

    def __init__(self, *, service: str, why: str) -> None:
        """Name the service and say why."""
        super().__init__(f"{NAMES.get(service, service)} could not be reached: {why}")
        self.service = service
        self.why = why


class Cache(Protocol):
    """Where answers are kept between runs."""

    def get(self, *, key: str) -> tuple[int, str] | None:
        """(status, body) of an answer kept for this key, or None."""
        ...

    def put(self, *, key: str, url: str, status: int, body: str) -> None:
        """Keep an answer."""
        ...


def cache_key(*, url: str) -> str:
    """The cache's key for a URL."""
    return hashlib.sha256(url.encode()).hexdigest()


@dataclass
class Pace:
    """When each service may next be asked."""

    clock: Callable[[], float] = time.monotonic
    sleep: Callable[[float], None] = time.sleep
    gaps: dict[str, float] = field(default_factory=lambda: dict(PACE))
    _next: dict[str, float] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def wait(self, *, service: str, at_least: float = 0.0) -> None:
        """Block until `service` may be asked (and `at_least` seconds from now: a Retry-After),
        and book the next slot."""
        with self._lock:
            now = self.clock()
            start = max(now + at_least, self._next.get(service, now))
            self._next[service] = start + self.gaps.get(service, 1.0)
        if start > now:
            self.sleep(start - now)


@dataclass
class Fetcher:
    """GET a URL of a service: paced, cached, with one retry after a 429/503's Retry-After."""

    user_agent: str
    timeout: float
    cache: Cache | None = None
    pace: Pace = field(default_factory=Pace)
    asked: dict[str, int] = field(default_factory=dict)

    def get(self, *, service: str, url: str, read: Callable[[str], T]) -> T | None:
        """What `read` makes of the answer (None for a 404); answers are cached only once read
        (a garbled body is asked again next time). Unreachable for a failure, after one retry
        when a 429/503 says when to come back; whatever `read` raises goes to the caller."""
        key = cache_key(url=url)
        kept = self.cache.get(key=key) if self.cache is not None else None
        if kept is not None:
            return read(kept[1]) if kept[0] == 200 else None
        delay = 0.0
        for attempt in (1, 2):
            self.pace.wait(service=service, at_least=delay)
            self.asked[service] = self.asked.get(service, 0) + 1
            try:
                status, body = self._once(service=service, url=url)
            except _Busy as busy:
                if attempt == 2:
                    raise Unreachable(service=service, why=f"HTTP {busy.status}") from None
                log.info("%s asks to wait %.0f s (HTTP %d)", service, busy.wait, busy.status)
                delay = busy.wait
                continue
            result = read(body) if status == 200 else None
            if self.cache is not None:
                self.cache.put(key=key, url=url, status=status, body=body)
            return result
        raise AssertionError("unreachable: the loop returns or raises")

    def _once(self, *, service: str, url: str) -> tuple[int, str]:
        """One request, all of it (redirects, headers, body) within the timeout."""
        try:
            body = get_within(
                url=url, user_agent=self.user_agent, timeout=self.timeout, limit=BODY_MAX
            )
            return 200, body.decode("utf-8", "replace")
        except urllib.error.HTTPError as exc:
            retry = exc.headers.get("Retry-After") if exc.headers else None
            exc.close()  # it holds the connection: unclosed, its socket waits for the GC
            if exc.code == 404:
                return 404, ""
            if exc.code in (429, 503):
                raise _Busy(status=exc.code, wait=_seconds(retry)) from None
            raise Unreachable(service=service, why=f"HTTP {exc.code}") from None
        except TimeoutError:
            raise Unreachable(service=service, why=f"no answer within {self.timeout:g} s") from None
        except (OSError, http.client.HTTPException) as exc:
            raise Unreachable(service=service, why=failure(exc=exc)) from None


class _Busy(Exception):
    """A 429 or 503: the service asks to come back later."""

    def __init__(self, *, status: int, wait: float) -> None:
        """The status and how long to wait."""
        super().__init__(status)
        self.status, self.wait = status, wait


def _seconds(value: str | None) -> float:
    """Retry-After in seconds (a number; an HTTP date is taken as the pace's own wait)."""
    try:
        return min(max(float(value or 0), 0.0), RETRY_AFTER_MAX)
    except ValueError:
        return 0.0
