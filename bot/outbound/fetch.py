"""The polite fetch the sources' watches use: a conditional GET of a feed or an API page that
hands back a new body, a "not modified" or a failure, and never raises for a network's or a
server's fault.

Polite: one request at a time per host, spaced as the host asks (spacing.py), Retry-After
honoured, a User-Agent naming Paper Club and the operator's contact, gzip accepted.
Robust: the whole request bounded by one timeout, the body by a size cap (over it nothing is
parsed), each hop's address checked before connecting (address.py), at most three redirects,
http and https only. Pure of the database: the caller keeps the validators and the failure
count per source, and parses the bytes (bot.sources).
"""

from __future__ import annotations

import http.client
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http import HTTPStatus
from urllib.parse import quote, urljoin, urlsplit

from bot.outbound.address import AddressRefused, guarded_dial
from bot.outbound.agent import user_agent
from bot.outbound.body import CutOff, TooLarge, UnknownEncoding, read_capped
from bot.outbound.deadline import Deadline, WatchedConnection, WatchedTlsConnection
from bot.outbound.failure import failure
from bot.outbound.retry import Backoff, retry_after
from bot.outbound.spacing import HostTurns
from bot.ports.fetching import Body, Failed, Fetched, NotModified, Validators

REDIRECTS_MAX = 3
# What a watch reads: a feed, else whatever the server has (Crossref answers JSON to any).
FEED_ACCEPT = "application/rss+xml, application/atom+xml, application/xml;q=0.9, */*;q=0.5"
SIZE_MAX = 5_000_000  # bytes, after gzip: arXiv's busiest day (about 2,000 entries) is ~4 MB
TIMEOUT_S = 30.0  # seconds for one request as a whole: connect, headers and body
_REDIRECTS = frozenset({301, 302, 303, 307, 308})
# Statuses that say "later": asking again without changing anything may succeed.
_TRANSIENT = frozenset({408, 425, 429, 500, 502, 503, 504})
_PATH_SAFE = "/%:@!$&'()*+,;=-._~"  # RFC 3986 pchar and "/": kept; anything else is escaped
_QUERY_SAFE = _PATH_SAFE + "?"


@dataclass(frozen=True, slots=True)
class _Target:
    """One hop: where to connect and what to ask."""

    url: str
    tls: bool
    host: str
    port: int
    path: str


@dataclass(frozen=True, slots=True)
class _Redirect:
    """A hop answered with a redirect to `location` (absolute)."""

    location: str


def _target(*, url: str) -> _Target | Failed:
    """The hop a URL names, or why it is not fetched (a scheme other than http(s), no host)."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return Failed(reason="the URL is not well formed", retry=False)
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https"):
        return Failed(reason="only http and https URLs are fetched", retry=False)
    if not parts.hostname:
        return Failed(reason="the URL names no host", retry=False)
    path = quote(parts.path or "/", safe=_PATH_SAFE)
    if parts.query:
        path += "?" + quote(parts.query, safe=_QUERY_SAFE)
    default = 443 if scheme == "https" else 80
    return _Target(url, scheme == "https", parts.hostname, port or default, path)


def _status_name(*, status: int) -> str:
    """ "HTTP 404 (Not Found)": the standard phrase, never the server's own words."""
    try:
        return f"HTTP {status} ({HTTPStatus(status).phrase})"
    except ValueError:
        return f"HTTP {status}"


@dataclass
class PoliteFetcher:
    """Fetches URLs politely (see the module). `contact` is Settings.contact (PAPERCLUB_CONTACT);
    `allow_private` lets loopback and LAN addresses through (the tests' fakes are on
    127.0.0.1); `turns` holds the per-host spacing and, with it, the clock and sleep; `wall` is
    the wall clock (epoch seconds) a Retry-After date is read against. Thread-safe."""

    contact: str = ""
    timeout: float = TIMEOUT_S
    max_bytes: int = SIZE_MAX
    allow_private: bool = False
    turns: HostTurns = field(default_factory=HostTurns)
    backoff: Backoff = field(default_factory=Backoff)
    wall: Callable[[], float] = time.time

    def fetch(
        self,
        *,
        url: str,
        validators: Validators = Validators(),  # noqa: B008 -- frozen, shared safely
        failures: int = 0,
        accept: str = FEED_ACCEPT,
    ) -> Fetched:
        """GET `url`, conditionally on `validators`: Body, NotModified or Failed.

        `failures`: how many fetches of this source failed in a row before this one (the
        backoff grows with it). Each hop waits for its host's turn and has `timeout` seconds;
        a redirect is followed at most REDIRECTS_MAX times, each target checked afresh."""
        current = url
        for _ in range(REDIRECTS_MAX + 1):
            target = _target(url=current)
            if isinstance(target, Failed):
                return target
            with self.turns.turn(host=target.host):
                outcome = self._once(
                    target=target, validators=validators, failures=failures, accept=accept
                )
            if not isinstance(outcome, _Redirect):
                return outcome
            current = outcome.location
        return Failed(reason=f"more than {REDIRECTS_MAX} redirects", retry=False)

    def _headers(self, *, validators: Validators, accept: str) -> dict[str, str]:
        """What every request sends."""
        return {
            "User-Agent": user_agent(contact=self.contact),
            "Accept": accept,
            "Accept-Encoding": "gzip",
            "Connection": "close",
            **validators.headers(),
        }

    def _once(
        self, *, target: _Target, validators: Validators, failures: int, accept: str
    ) -> Fetched | _Redirect:
        """One request, all of it (connect, headers, body) within the timeout."""
        deadline = Deadline(
            seconds=self.timeout, dial=guarded_dial(allow_private=self.allow_private)
        )
        kind = WatchedTlsConnection if target.tls else WatchedConnection
        connection = kind(target.host, port=target.port, timeout=self.timeout, deadline=deadline)
        try:
            connection.request(
                "GET", target.path, headers=self._headers(validators=validators, accept=accept)
            )
            response = connection.getresponse()
            return self._answer(
                target=target,
                response=response,
                deadline=deadline,
                failures=failures,
                sent=validators,
            )
        except AddressRefused as refused:
            return Failed(reason=str(refused), retry=False)
        except TooLarge:
            reason = f"the answer is larger than {self.max_bytes:,} bytes: nothing was read"
            return Failed(reason=reason, retry=False)
        except UnknownEncoding as encoding:
            return Failed(reason=f"an answer encoded as {str(encoding)[:40]!r}", retry=False)
        except CutOff as cut:
            return self._later(reason=f"the answer was cut off ({cut})", failures=failures)
        except (OSError, http.client.HTTPException, ValueError) as error:
            if deadline.over() or isinstance(error, TimeoutError):
                reason = f"no answer within {self.timeout:g} s"
            else:
                reason = f"could not be fetched: {failure(exc=error)}"[:300]
            return self._later(reason=reason, failures=failures)
        finally:
            connection.close()
            deadline.close()

    def _answer(
        self,
        *,
        target: _Target,
        response: http.client.HTTPResponse,
        deadline: Deadline,
        failures: int,
        sent: Validators,
    ) -> Fetched | _Redirect:
        """What the status and body make of one answer."""
        status = response.status
        kept = Validators.of(
            etag=response.getheader("ETag"), last_modified=response.getheader("Last-Modified")
        )
        if status in _REDIRECTS and response.getheader("Location"):
            return _Redirect(location=urljoin(target.url, response.getheader("Location", "")))
        if status == 304:
            both = Validators(
                etag=kept.etag or sent.etag, last_modified=kept.last_modified or sent.last_modified
            )
            return NotModified(validators=both)
        if 200 <= status < 300:
            data = read_capped(response=response, deadline=deadline, limit=self.max_bytes)
            kind = (response.getheader("Content-Type") or "")[:200]
            return Body(data=data, validators=kept, url=target.url, content_type=kind)
        name = _status_name(status=status)
        if status not in _TRANSIENT:
            return Failed(reason=name, retry=False, status=status)
        wait = retry_after(
            value=response.getheader("Retry-After"), now=self.wall(), cap=self.backoff.cap
        )
        if wait is None:
            return self._later(reason=name, failures=failures, status=status)
        self.turns.defer(host=target.host, seconds=wait)
        return Failed(
            reason=f"{name}, asked to wait {wait:g} s", retry=True, retry_in=wait, status=status
        )

    def _later(self, *, reason: str, failures: int, status: int | None = None) -> Failed:
        """A failure worth retrying after the backoff for one more failure in a row."""
        wait = self.backoff.after(failures=failures + 1)
        return Failed(reason=reason, retry=True, retry_in=wait, status=status)
