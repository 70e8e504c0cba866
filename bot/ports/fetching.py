"""Fetching a source: what a polite fetch takes (the validators kept from the last answer)
and gives (a new body, a "not modified", or a failure that says why, whether to try again and
when), and the Fetcher port bot/outbound implements."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Protocol

# A validator is sent back verbatim in a header: one with a line break, a control character or
# of absurd length (a hostile server's) is dropped rather than sent.
_SAFE_HEADER_RE = re.compile(r"[\x20-\x7e]{1,1024}")


def _safe(*, value: str | None) -> str | None:
    """A header value fit to send back, or None."""
    if value is None:
        return None
    value = value.strip()
    return value if _SAFE_HEADER_RE.fullmatch(value) else None


@dataclass(frozen=True, slots=True)
class Validators:
    """ETag and Last-Modified as the server last sent them (the caller keeps them per source);
    the next fetch sends them back as If-None-Match and If-Modified-Since."""

    etag: str | None = None
    last_modified: str | None = None

    @classmethod
    def of(cls, *, etag: str | None, last_modified: str | None) -> Validators:
        """Validators from response headers, each dropped when not fit to send back."""
        return cls(etag=_safe(value=etag), last_modified=_safe(value=last_modified))

    def headers(self) -> dict[str, str]:
        """The conditional request headers these validators make (none when both are unset)."""
        found: dict[str, str] = {}
        if (etag := _safe(value=self.etag)) is not None:
            found["If-None-Match"] = etag
        if (since := _safe(value=self.last_modified)) is not None:
            found["If-Modified-Since"] = since
        return found


@dataclass(frozen=True, slots=True)
class Body:
    """A new body, as bytes (decoded from gzip, not parsed: the reader says whether it is a
    feed); `url` is where it came from after redirects; keep `validators` for the next fetch."""

    data: bytes
    validators: Validators
    url: str
    content_type: str = ""


@dataclass(frozen=True, slots=True)
class NotModified:
    """A 304: nothing new since the validators sent; keep `validators` (the server may renew
    them)."""

    validators: Validators


@dataclass(frozen=True, slots=True)
class Failed:
    """Nothing fetched. `reason` is for a person ("HTTP 404 (Not Found)", "no answer within
    30 s"); `retry` says whether asking again later may help by itself (a timeout, a 503) or
    a person must change the source first (a 404, a refused address, a body over the cap);
    `retry_in` is seconds until the next attempt when `retry` (the server's Retry-After, else a
    backoff on `failures`), None otherwise."""

    reason: str
    retry: bool
    retry_in: float | None = None
    status: int | None = None


Fetched = Body | NotModified | Failed


class Fetcher(Protocol):
    """Reads a URL politely (bot/outbound/fetch.py's PoliteFetcher is the real one)."""

    def fetch(
        self,
        *,
        url: str,
        validators: Validators = Validators(),
        failures: int = 0,
    ) -> Fetched:
        """GET `url`, conditionally on `validators`: Body, NotModified or Failed; `failures`:
        how many fetches of this source failed in a row before this one."""
        ...
