"""HTTP mode: POST /slack/events (events, commands, interactivity) as a WSGI callable for the
process's server (bot.web.server). Every request's signature and timestamp are checked on its
raw bytes (401 otherwise), and a signed body's shape before Bolt sees it (400 otherwise)."""

from __future__ import annotations

import hashlib
import hmac
import logging
import threading
import time
from collections.abc import Callable, Iterable
from http import HTTPStatus
from typing import Any, Protocol
from urllib.parse import parse_qsl

from slack_bolt import BoltRequest, BoltResponse
from slack_bolt.request.internals import build_context

from bot.ports import ArchiveUnavailable, SeenRequests
from bot.slack.shape import Malformed, check_body

log = logging.getLogger(__name__)

MAX_BODY = 1_000_000
# Slack's own tolerance: a request older (or newer) than five minutes may be a replay.
MAX_SKEW_SECONDS = 300
# Seconds since 1970 have 10 digits until the year 2286.
MAX_STAMP_DIGITS = 12
StartResponse = Callable[..., Any]
WsgiApp = Callable[[dict[str, Any], StartResponse], list[bytes]]


class Dispatches(Protocol):
    """What answers a verified request: a Bolt App, or distribution's router of many."""

    def dispatch(self, req: BoltRequest) -> BoltResponse:
        """Run the request through listeners and return the response."""
        ...


class FormSafeRequest(BoltRequest):
    """A BoltRequest that keeps slash commands whose text mentions "payload".

    Bolt reads any form body containing the text "payload" as an interactivity payload and,
    finding no `payload` field, drops the whole body: `/paperclub search payload` would be lost.
    """

    def __init__(self, *, body: str, headers: dict[str, str]) -> None:
        """Parse as Bolt does, then re-parse form bodies that Bolt emptied by mistake."""
        super().__init__(body=body, headers=dict(headers))
        if not self.body and body and not body.lstrip().startswith("{"):
            fields = dict(parse_qsl(body, keep_blank_values=True))
            if "payload" not in fields and fields:
                self.body = fields
                self.context = build_context(self.context, self.body)

    def to_copyable(self) -> BoltRequest:
        """Lazy listeners get a copy re-parsed from the raw body: keep our parse there too."""
        copy = super().to_copyable()
        if not copy.body and self.body:
            copy.body = dict(self.body)
            copy.context = build_context(copy.context, copy.body)
        return copy


def is_signed(*, data: bytes, headers: dict[str, str], key: bytes, now: float) -> bool:
    """Slack's v0 signature over the raw bytes, with a fresh timestamp.

    On bytes, not text: slack_sdk's verifier decodes first and raises on a body that is not
    UTF-8, which would turn a forged request into a 500 instead of a 401. Header values arrive
    as Latin-1 text: a timestamp of "²" is a digit to str.isdigit but not to int(), and a
    non-ASCII signature makes compare_digest raise, so both must be plain ASCII first.
    """
    stamp = headers.get("x-slack-request-timestamp", "")
    given = headers.get("x-slack-signature", "")
    # A stamp of more digits than any time has is refused before int(): Python refuses to read
    # over 4,300 digits (a ValueError, once a 500) and would spend time on the rest.
    plain = stamp.isascii() and stamp.isdigit() and len(stamp) <= MAX_STAMP_DIGITS
    if not (plain and given.isascii()) or not key:
        return False
    if abs(now - int(stamp)) > MAX_SKEW_SECONDS:
        return False
    digest = hmac.new(key, b"v0:" + stamp.encode() + b":" + data, hashlib.sha256).hexdigest()
    return hmac.compare_digest("v0=" + digest, given)


class ReplayGuard:
    """Signatures seen in the last five minutes: the same signed request twice is a replay.

    Slack's own retries are new requests with a new timestamp, hence a new signature, so this
    refuses nothing Slack sends. Per process: the default with SQLite, where one process serves;
    replicas on PostgreSQL share the database's record instead (bot.db.seen_requests).
    """

    def __init__(self) -> None:
        """Nothing seen yet."""
        self._seen: dict[str, float] = {}
        self._lock = threading.Lock()

    def first_time(self, *, signature: str, now: float) -> bool:
        """Record a signature; False when it was seen within the window."""
        with self._lock:
            if len(self._seen) > 10_000 or next(iter(self._seen.values()), now) < now:
                self._seen = {s: t for s, t in self._seen.items() if t >= now}
            if self._seen.get(signature, 0) >= now:
                return False
            self._seen[signature] = now + 2 * MAX_SKEW_SECONDS
            return True


class FallingBack:
    """The replicas' shared record of signatures, with this process's own memory beside it: a
    database outage must not turn every signed request into a 401 or a 500. Every signature
    goes into the memory; while the shared record cannot be read or written the memory alone
    answers (a replay this process saw is still refused), with one WARNING per outage."""

    def __init__(self, *, shared: SeenRequests) -> None:
        """Ask `shared` first."""
        self._shared = shared
        self._own = ReplayGuard()
        self._lock = threading.Lock()
        self._down = False

    def first_time(self, *, signature: str, now: float) -> bool:
        """Record a signature; False when this process, or any replica while the shared record
        answers, saw it within the window."""
        if not self._own.first_time(signature=signature, now=now):
            return False
        try:
            fresh = self._shared.first_time(signature=signature, now=now)
        except ArchiveUnavailable as error:
            self._outage(error=error)
            return True
        self._outage(error=None)
        return fresh

    def _outage(self, *, error: ArchiveUnavailable | None) -> None:
        """Log the start and the end of an outage, once each."""
        with self._lock:
            was, self._down = self._down, error is not None
        if error is not None and not was:
            log.warning("replay check on this process's memory only: %s", error)
        elif error is None and was:
            log.info("replay check shared by the replicas again: the archive answers")


def headers_of(*, environ: dict[str, Any]) -> dict[str, str]:
    """Request headers from a WSGI environ."""
    headers = {
        key[5:].replace("_", "-").lower(): str(value)
        for key, value in environ.items()
        if key.startswith("HTTP_")
    }
    if environ.get("CONTENT_TYPE"):
        headers["content-type"] = str(environ["CONTENT_TYPE"])
    return headers


# The phrases of the statuses this module and Bolt send (413 as RFC 7231 named it, where
# Python 3.11's HTTPStatus says "Request Entity Too Large"); any other takes HTTPStatus's.
REASONS = {
    200: "OK",
    302: "Found",
    400: "Bad Request",
    401: "Unauthorized",
    404: "Not Found",
    405: "Method Not Allowed",
    413: "Payload Too Large",
    500: "Internal Server Error",
    503: "Service Unavailable",
}


def send(
    start_response: StartResponse, status: int, body: str, headers: Iterable[tuple[str, str]] = ()
) -> list[bytes]:
    """Start a response (plain text unless Bolt gave a Content-Type) and return its body."""
    data = body.encode()
    extra = [(k, v) for k, v in headers if k.lower() != "content-length"]
    if not any(k.lower() == "content-type" for k, _ in extra):
        extra.append(("Content-Type", "text/plain; charset=utf-8"))
    start_response(
        f"{status} {reason(status=status)}", [*extra, ("Content-Length", str(len(data)))]
    )
    return [data]


def reason(*, status: int) -> str:
    """A status's reason phrase: ours, or the standard one for whatever Bolt answers (its 500,
    a 503 of a listener); "Unknown" only for a code no RFC registered."""
    if status in REASONS:
        return REASONS[status]
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "Unknown"


def make_wsgi_app(
    *, app: Dispatches, signing_secret: str, replays: SeenRequests | None = None
) -> WsgiApp:
    """The WSGI callable for Slack's requests (POST only; the server routes the path here)."""
    key = signing_secret.encode()
    seen: SeenRequests = ReplayGuard() if replays is None else FallingBack(shared=replays)

    def wsgi(environ: dict[str, Any], start_response: StartResponse) -> list[bytes]:
        """Check one request, then hand it to Bolt."""
        if environ.get("REQUEST_METHOD", "") != "POST":
            return send(start_response, 405, "use POST")
        try:
            length = int(environ.get("CONTENT_LENGTH") or 0)
        except ValueError:
            return send(start_response, 400, "bad content length")
        if length > MAX_BODY:  # waitress refuses these itself; this guards other servers
            return send(start_response, 413, "too large")
        data = environ["wsgi.input"].read(length)
        headers = headers_of(environ=environ)
        # Verify the bytes before parsing, so a forged request is a 401 whatever its body.
        now = time.time()
        if not is_signed(data=data, headers=headers, key=key, now=now):
            return send(start_response, 401, "invalid signature or stale timestamp")
        if not seen.first_time(signature=headers.get("x-slack-signature", ""), now=now):
            return send(start_response, 401, "replayed request")
        try:
            text = data.decode("utf-8")
            check_body(text=text, content_type=headers.get("content-type", ""))
            request = FormSafeRequest(body=text, headers=headers)
        except Malformed as exc:
            return send(start_response, 400, f"malformed request: {exc}")
        except ValueError:  # UnicodeDecodeError and JSONDecodeError are both ValueErrors
            return send(start_response, 400, "the body is neither UTF-8 JSON nor a form")
        response = app.dispatch(request)
        answer = [(k, v) for k, values in response.headers.items() for v in values]
        return send(start_response, response.status, response.body or "", answer)

    return wsgi
