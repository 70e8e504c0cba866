"""The HTTP side of the fake: /api/<method> (Web API) and /hooks/<id> (response_url)."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from . import web_api
from .model import ApiError, Failure, JsonDict, RecordedCall
from .oauth import OAuthServer
from .registry import Registry
from .state import Workspace

# The key fail_next()/delay_next() use for response_url POSTs.
RESPONSE_URL = "response_url"

_DEFAULT_ERRORS = {429: "ratelimited", 500: "fatal_error", 503: "service_unavailable"}


class _Server(ThreadingHTTPServer):
    # Handler threads are joined by server_close(): stop() leaves no thread behind.
    daemon_threads = False  # daemon threads are not tracked, so server_close() could not join them
    block_on_close = True
    # socketserver's default backlog of 5 drops SYNs under a burst of parallel calls, and
    # the kernel retries them only after a second: tests would crawl.
    request_queue_size = 128

    def __init__(
        self, ws: Workspace, socket_mode_url: Callable[[], str], oauth: OAuthServer
    ) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.ws = ws
        self.socket_mode_url = socket_mode_url
        # Every workspace the fake serves; a Web API call runs in its token's workspace.
        self.registry = oauth.registry
        self.oauth = oauth
        # Set on stop so injected delays end at once instead of holding shutdown hostage.
        self.stopping = threading.Event()

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Stay quiet about clients that hang up (timeouts in tests do that on purpose)."""


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    # stop() joins handler threads: a client that connects and never sends must not hold it.
    timeout = 5

    def log_message(self, format: str, *args: Any) -> None:
        """No access log on stderr."""

    def do_GET(self) -> None:
        """Slack accepts GET for read methods; treat it like POST."""
        self._handle()

    def do_POST(self) -> None:
        """Route a request to the Web API or a response_url."""
        self._handle()

    def _handle(self) -> None:
        url = urlsplit(self.path)
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        if url.path.startswith("/api/"):
            self._web_api(url.path.removeprefix("/api/"), url.query, raw)
        elif url.path.startswith("/hooks/"):
            self._response_url(url.path.rsplit("/", 1)[-1], raw)
        elif url.path == "/oauth/v2/authorize":
            self._authorize()
        else:
            self._send(404, b"Not Found", "text/plain")

    def _params(self, query: str, raw: bytes) -> JsonDict | None:
        params: JsonDict = dict(parse_qsl(query, keep_blank_values=True))
        if self.headers.get_content_type() == "application/json":
            try:
                body = json.loads(raw or b"{}")
            except ValueError:
                return None
            if not isinstance(body, dict):
                return None
            params.update(body)
        else:
            params.update(parse_qsl(raw.decode("utf-8"), keep_blank_values=True))
        return params

    def _authorize(self) -> None:
        """The signed-in person clicks Allow: 302 back to the app with a code and the state."""
        try:
            oauth = self.server.oauth
            location = oauth.authorize(self.path, team_id=oauth.signed_in_team)
        except ApiError as e:
            self._send(400, e.error.encode(), "text/plain")
            return
        self._send(302, b"", "text/plain", {"Location": location})

    def _web_api(self, method: str, query: str, raw: bytes) -> None:
        params = self._params(query, raw)
        if params is None:
            self._json(200, {"ok": False, "error": "invalid_json"})
            return
        auth = self.headers.get("Authorization", "")
        # A token in the body works too (slack_sdk moves it to the header, others don't).
        body_token = params.pop("token", None)
        token = auth.removeprefix("Bearer ").strip() if auth.startswith("Bearer ") else body_token
        if method == "oauth.v2.access":
            self._oauth_access(params, auth)
            return
        ws = self.server.registry.for_token(token)
        run_with = params  # what the method runs with; the log keeps what was asked
        if ws.token_kind(token) == "bot":
            wait = self.server.registry.limits.admit(ws.team_id, method)
            if wait is not None:
                self._fail(method, params, token, Failure(429, None, wait, False, False, 1))
                return
            run_with = self.server.registry.limits.clamp(method, params)
        failure, delay = ws.take_failure(method), ws.take_delay(method)
        if delay:
            self.server.stopping.wait(delay)
        if failure is not None and not failure.after_effect:
            self._fail(method, params, token, failure)
            return
        ctx = web_api.Context(socket_mode_url=self.server.socket_mode_url())
        answer = web_api.call(ws, method, run_with, token, ctx)
        if failure is not None:
            # after_effect: the method ran (the message is stored) but the caller hears of
            # a failure; exactly the case a retrying client turns into a duplicate.
            self._fail(method, params, token, failure)
            return
        ws.record(RecordedCall(method, params, token, 200, answer.body))
        self._json(200, answer.body, answer.headers)

    def _oauth_access(self, params: JsonDict, authorization: str) -> None:
        """oauth.v2.access: no token, the app's credentials; recorded in the installed team."""
        ws = self.server.ws
        try:
            team, body = self.server.oauth.access(authorization=authorization, params=params)
            ws = self.server.registry.get(team) if team else ws
            answer: JsonDict = {"ok": True, **body}
        except ApiError as e:
            answer = {"ok": False, "error": e.error}
        # The secret is never recorded: only which client asked.
        shown = {k: v for k, v in params.items() if k != "client_secret"}
        ws.record(RecordedCall("oauth.v2.access", shown, None, 200, answer))
        self._json(200, answer)

    def _response_url(self, rid: str, raw: bytes) -> None:
        ws = self.server.ws
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = {"_raw": raw.decode("utf-8", "replace")}
        failure, delay = ws.take_failure(RESPONSE_URL), ws.take_delay(RESPONSE_URL)
        if delay:
            self.server.stopping.wait(delay)
        if failure is not None and not failure.after_effect:
            self._fail(RESPONSE_URL, body, None, failure)
            return
        known = ws.add_response(rid, body)
        if failure is not None:
            self._fail(RESPONSE_URL, body, None, failure)
            return
        status, text = (200, "ok") if known else (404, "no_service")
        ws.record(RecordedCall(RESPONSE_URL, body, None, status, {"text": text}))
        self._send(status, text.encode(), "text/html")

    def _fail(self, method: str, params: JsonDict, token: str | None, failure: Failure) -> None:
        if failure.drop:
            self.server.ws.record(RecordedCall(method, params, token, 0, None))
            # Closing without a byte of answer: urllib raises RemoteDisconnected, which
            # slack_sdk's default ConnectionErrorRetryHandler retries once.
            self.close_connection = True
            return
        error = failure.error or _DEFAULT_ERRORS.get(failure.status, "internal_error")
        body = {"ok": False, "error": error}
        headers = {}
        if failure.status == 429:
            headers["Retry-After"] = str(
                failure.retry_after if failure.retry_after is not None else 1
            )
        self.server.ws.record(RecordedCall(method, params, token, failure.status, body))
        self._json(failure.status, body, headers)

    def _json(self, status: int, body: JsonDict, headers: dict[str, str] | None = None) -> None:
        self._send(status, json.dumps(body).encode(), "application/json; charset=utf-8", headers)

    def _send(
        self, status: int, data: bytes, content_type: str, headers: dict[str, str] | None = None
    ) -> None:
        try:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)
        except ConnectionError:
            pass  # the client gave up (e.g. its timeout fired during delay_next)


class ApiServer:
    """A threaded HTTP server on 127.0.0.1, random port, bound by start()."""

    def __init__(
        self, ws: Workspace, socket_mode_url: Callable[[], str], registry: Registry | None = None
    ) -> None:
        self._ws, self._socket_mode_url = ws, socket_mode_url
        self.oauth = OAuthServer(registry or Registry(ws))
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        """The port the OS gave us."""
        if self._server is None:
            raise RuntimeError("the Web API server is not started")
        return int(self._server.server_address[1])

    def start(self) -> None:
        """Bind and serve in a background thread."""
        self._server = _Server(self._ws, self._socket_mode_url, self.oauth)
        self._thread = threading.Thread(
            target=self._server.serve_forever,
            kwargs={"poll_interval": 0.05},
            name="fakeslack-http",
            daemon=True,
        )
        self._thread.start()

    def stop(self) -> None:
        """Stop serving, end pending delays, join every thread, close the socket."""
        if self._server is None or self._thread is None:
            return
        self._server.stopping.set()
        self._server.shutdown()
        self._thread.join()
        self._server.server_close()
