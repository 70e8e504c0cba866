"""HTTP mode: POST /slack/events (events, commands, interactivity) and GET /healthz, as WSGI
for waitress, a production server. Every request's signature and timestamp are checked by Bolt
(401 otherwise)."""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import logging
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import parse_qsl

from slack_bolt import App, BoltRequest
from slack_bolt.request.internals import build_context
from waitress import wasyncore
from waitress.server import create_server

log = logging.getLogger(__name__)

MAX_BODY = 1_000_000
# Slack's own tolerance: a request older (or newer) than five minutes may be a replay.
MAX_SKEW_SECONDS = 300
StartResponse = Callable[..., Any]


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
    UTF-8, which would turn a forged request into a 500 instead of a 401.
    """
    stamp = headers.get("x-slack-request-timestamp", "")
    given = headers.get("x-slack-signature", "")
    if not stamp.isdigit() or abs(now - int(stamp)) > MAX_SKEW_SECONDS or not key:
        return False
    digest = hmac.new(key, b"v0:" + stamp.encode() + b":" + data, hashlib.sha256).hexdigest()
    return hmac.compare_digest("v0=" + digest, given)


class ReplayGuard:
    """Signatures seen in the last five minutes: the same signed request twice is a replay.

    Slack's own retries are new requests with a new timestamp, hence a new signature, so this
    refuses nothing Slack sends. Per process: with several replicas behind a load balancer a
    replay could reach another one within the window (events and clicks stay safe there: their
    ids are deduplicated in the database).
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


def _headers(*, environ: dict[str, Any]) -> dict[str, str]:
    """Request headers from a WSGI environ."""
    headers = {
        key[5:].replace("_", "-").lower(): str(value)
        for key, value in environ.items()
        if key.startswith("HTTP_")
    }
    if environ.get("CONTENT_TYPE"):
        headers["content-type"] = str(environ["CONTENT_TYPE"])
    return headers


def _send(
    start_response: StartResponse, status: int, body: str, headers: Iterable[tuple[str, str]] = ()
) -> list[bytes]:
    """Start a response and return its body."""
    reasons = {200: "OK", 400: "Bad Request", 401: "Unauthorized", 404: "Not Found",
               405: "Method Not Allowed", 413: "Payload Too Large"}  # fmt: skip
    data = body.encode()
    extra = [(k, v) for k, v in headers if k.lower() != "content-length"]
    if not any(k.lower() == "content-type" for k, _ in extra):
        extra.append(("Content-Type", "text/plain; charset=utf-8"))
    start_response(
        f"{status} {reasons.get(status, 'Error')}",
        [*extra, ("Content-Length", str(len(data)))],
    )
    return [data]


def make_wsgi_app(
    *, app: App, signing_secret: str, path: str = "/slack/events"
) -> Callable[..., list[bytes]]:
    """The WSGI callable serving Slack's requests and the health check."""
    key = signing_secret.encode()
    replays = ReplayGuard()

    def wsgi(environ: dict[str, Any], start_response: StartResponse) -> list[bytes]:
        """Route one HTTP request."""
        route, method = environ.get("PATH_INFO", ""), environ.get("REQUEST_METHOD", "")
        if route == "/healthz":
            return _send(start_response, 200, "ok")
        if route != path:
            return _send(start_response, 404, "not found")
        if method != "POST":
            return _send(start_response, 405, "use POST")
        try:
            length = int(environ.get("CONTENT_LENGTH") or 0)
        except ValueError:
            return _send(start_response, 400, "bad content length")
        if length > MAX_BODY:
            return _send(start_response, 413, "too large")
        data = environ["wsgi.input"].read(length)
        headers = _headers(environ=environ)
        # Verify the bytes before parsing, so a forged request is a 401 whatever its body.
        now = time.time()
        if not is_signed(data=data, headers=headers, key=key, now=now):
            return _send(start_response, 401, "invalid signature or stale timestamp")
        if not replays.first_time(signature=headers.get("x-slack-signature", ""), now=now):
            return _send(start_response, 401, "replayed request")
        try:
            request = FormSafeRequest(body=data.decode("utf-8"), headers=headers)
        except ValueError:  # UnicodeDecodeError and JSONDecodeError are both ValueErrors
            return _send(start_response, 400, "the body is neither UTF-8 JSON nor a form")
        response = app.dispatch(request)
        answer = [(k, v) for k, values in response.headers.items() for v in values]
        return _send(start_response, response.status, response.body or "", answer)

    return wsgi


class HttpService:
    """A waitress server on its own thread for POST /slack/events and GET /healthz, stopped
    cleanly: the sockets are closed on the serving thread itself, so its poll loop ends because
    nothing is left to serve (closing them from another thread would make the loop fail on a
    closed socket and leave the connections it still held unclosed). Port 0 picks a free one;
    `port` says which."""

    def __init__(self, *, app: App, signing_secret: str, host: str, port: int) -> None:
        """Bind now, so `port` is known before serving."""
        wsgi = make_wsgi_app(app=app, signing_secret=signing_secret)
        self.server: Any = create_server(wsgi, host=host, port=port, threads=8)
        self.port = int(self.server.effective_port)
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._serve, name="http", daemon=True)

    def _serve(self) -> None:
        """Serve until closed."""
        try:
            self.server.run()
        except (OSError, ValueError):
            if not self._stopping.is_set():
                raise

    def start(self) -> None:
        """Serve requests."""
        self._thread.start()

    def stop(self) -> None:
        """Stop accepting, let the requests in flight finish, then close every connection on
        the serving thread (its loop then ends at once) and join it."""
        self._stopping.set()
        serving = self._on_serving_thread(self._stop_accepting)
        self.server.task_dispatcher.shutdown()
        if serving and self._on_serving_thread(self._close_all):
            self._thread.join(timeout=10)
        self._close_all()  # never started, or the loop died: close what is left from here

    def _on_serving_thread(self, thunk: Callable[[], None]) -> bool:
        """Have the serving thread run `thunk`; False when it no longer serves (it never
        started, or its loop ended and closed the trigger: a write to it then fails)."""
        if not self._thread.is_alive():
            return False
        try:
            self.server.trigger.pull_trigger(thunk)
        except OSError:
            return False
        return True

    def _stop_accepting(self) -> None:
        """Close the listening socket (on the serving thread)."""
        wasyncore.dispatcher.close(self.server)

    def _close_all(self) -> None:
        """Send what the connections still hold, then close them, the listening socket and
        the trigger: nothing is left for the poll loop, nothing is left to the garbage
        collector."""
        for channel in list(self.server._map.values()):
            if getattr(channel, "total_outbufs_len", 0) and hasattr(channel, "_flush_some"):
                with contextlib.suppress(OSError):
                    channel._flush_some()
        wasyncore.close_all(self.server._map, ignore_all=True)
