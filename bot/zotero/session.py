"""How every Zotero request is sent: the API version and key headers, the server's Backoff and
Retry-After honoured, failures retried when a replay is safe, a 403 told apart.

- `Backoff: <s>` on any answer: no request to this API before s seconds have passed (the
  docs ask clients to pause; the answer itself is still good and is used).
- 429 or 503 with `Retry-After: <s>`: wait s seconds and send again; a wait longer than
  `max_wait` is not slept through but raised as ZoteroBusy(retry_in=s) for the caller's
  scheduler. 500/502/504 and a dropped connection: send again after 1, 2, 4... seconds,
  `attempts` tries in all, only when `replay` is True (a write is replayed only when the
  server can recognise it: a write token, or a version precondition).
- 403: /keys/current is asked; if it refuses the key too, KeyRevoked, else AccessDenied.

All waits go through `sleep` and `clock`, so tests do not sleep.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot.outbound.agent import user_agent
from bot.outbound.retry import retry_after
from bot.zotero.errors import AccessDenied, KeyRevoked, ZoteroBusy, ZoteroUnavailable
from bot.zotero.transport import Dropped, Refused, Reply, exchange

API_BASE = "https://api.zotero.org"
API_VERSION = "3"
ATTEMPTS = 4  # tries of one request: the first and three retries
MAX_WAIT_S = 120.0  # longest pause a call sleeps through; longer ones go back to the caller
_RETRY_STATUS = frozenset({500, 502, 503, 504})
_BUSY_STATUS = frozenset({429, 503})


@dataclass
class ZoteroSession:
    """Sends requests to `base` (API_BASE; a fake's URL in tests, with `allow_private`) with
    `api_key`. `contact` goes in the User-Agent. Thread-safe: the backoff is shared."""

    api_key: str = field(repr=False)
    base: str = API_BASE
    contact: str = ""
    allow_private: bool = False
    attempts: int = ATTEMPTS
    max_wait: float = MAX_WAIT_S
    clock: Callable[[], float] = time.monotonic
    sleep: Callable[[float], None] = time.sleep
    wall: Callable[[], float] = time.time
    _not_before: float = 0.0
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def url(self, *, path: str) -> str:
        """The absolute URL of an API path ("/users/1/items?since=3")."""
        return self.base.rstrip("/") + path

    def owns(self, *, url: str) -> bool:
        """Whether a URL (a Link header's) points into this API: the key is sent nowhere else."""
        return url.startswith(self.base.rstrip("/") + "/")

    def send(
        self,
        *,
        method: str,
        url: str,
        headers: dict[str, str] | None = None,
        payload: Any = None,
        replay: bool = True,
    ) -> Reply:
        """Send and answer (2xx, 304 and 4xx but 403 and 429 come back as Replies)."""
        body = None if payload is None else json.dumps(payload).encode("utf-8")
        sent = {
            "Zotero-API-Version": API_VERSION,
            "Zotero-API-Key": self.api_key,
            "User-Agent": user_agent(contact=self.contact),
            "Accept": "application/json",
            "Accept-Encoding": "gzip",
            "Connection": "close",
            **({"Content-Type": "application/json"} if body is not None else {}),
            **(headers or {}),
        }
        last = "no attempt was made"
        for attempt in range(self.attempts):
            self._wait_turn()
            try:
                reply = exchange(
                    method=method,
                    url=url,
                    headers=sent,
                    body=body,
                    allow_private=self.allow_private,
                )
            except Refused as refused:
                raise ZoteroUnavailable(str(refused)) from None
            except Dropped as dropped:
                last = f"{method} {url.split('?')[0]}: {dropped}"
                if not replay:
                    raise ZoteroUnavailable(last) from None
                self._pause(seconds=2.0**attempt)
                continue
            self._note_backoff(reply=reply)
            if reply.status == 403:
                raise self._forbidden(url=url)
            wait = retry_after(value=reply.header("Retry-After"), now=self.wall(), cap=1e9)
            if reply.status in _BUSY_STATUS and wait is not None:
                if wait > self.max_wait:
                    raise ZoteroBusy(f"Zotero asks to wait {wait:g} s", retry_in=wait)
                last = f"{method}: HTTP {reply.status}, asked to wait {wait:g} s"
                self._pause(seconds=wait)
                continue
            if reply.status == 429:
                last = f"{method}: HTTP 429 without Retry-After"
                self._pause(seconds=2.0**attempt)
                continue
            if reply.status in _RETRY_STATUS and replay:
                last = f"{method} {url.split('?')[0]}: HTTP {reply.status}"
                self._pause(seconds=2.0**attempt)
                continue
            if reply.status >= 500:
                raise ZoteroUnavailable(f"{method}: HTTP {reply.status}")
            return reply
        raise ZoteroUnavailable(f"gave up after {self.attempts} tries: {last}")

    def _forbidden(self, *, url: str) -> Exception:
        """KeyRevoked when /keys/current refuses the key as well, else AccessDenied."""
        probe = self.url(path="/keys/current")
        if url.split("?")[0] == probe:
            return KeyRevoked("Zotero refuses the API key (revoked or deleted)")
        try:
            self.send(method="GET", url=probe)
        except KeyRevoked as revoked:
            return revoked
        return AccessDenied(f"the API key may not do this: {url.split('?')[0][:200]}")

    def _note_backoff(self, *, reply: Reply) -> None:
        """A Backoff header: no request before that many seconds from now."""
        value = (reply.header("Backoff") or "").strip()
        if value.isdigit():
            with self._lock:
                self._not_before = max(self._not_before, self.clock() + float(value))

    def _pause(self, *, seconds: float) -> None:
        """Wait before a retry (at least as long as any Backoff asks)."""
        with self._lock:
            self._not_before = max(self._not_before, self.clock() + seconds)

    def _wait_turn(self) -> None:
        """Sleep until the Backoff or retry pause is over; ZoteroBusy when that is too long."""
        with self._lock:
            left = self._not_before - self.clock()
        if left > self.max_wait:
            raise ZoteroBusy(f"Zotero asked for a pause of {left:g} s", retry_in=left)
        if left > 0:
            self.sleep(left)
