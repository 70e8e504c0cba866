"""The HTTP part of the fake Zotero: a loopback server taking every method the Web API uses,
the request log, and the queued faults (an error answer, a Backoff header, a connection dropped
after the write was stored). FakeZotero (api.py) says what each request gets."""

from __future__ import annotations

import threading
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from types import TracebackType
from typing import Any, NamedTuple, Self

from tests.loopback_http import LoopbackServer, Serving

REASONS = {
    200: "OK",
    204: "No Content",
    304: "Not Modified",
    400: "Bad Request",
    403: "Forbidden",
    404: "Not Found",
    409: "Conflict",
    412: "Precondition Failed",
    413: "Request Entity Too Large",
    428: "Precondition Required",
    429: "Too Many Requests",
    500: "Internal Server Error",
    503: "Service Unavailable",
}


class Request(NamedTuple):
    """One request as it arrived: method, path with query, headers, body, the status sent
    (0 for a connection dropped without an answer)."""

    method: str
    path: str
    headers: dict[str, str]
    body: bytes
    status: int

    def header(self, name: str) -> str | None:
        """A request header by name, case-insensitively (None when absent)."""
        wanted = name.lower()
        return next((v for k, v in self.headers.items() if k.lower() == wanted), None)


@dataclass
class Answer:
    """What one request gets: status, headers, body (plain text for errors, as the server)."""

    status: int
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)


def text(*, status: int, message: str) -> Answer:
    """An error answer as dataserver writes them: a short plain-text body."""
    return Answer(status, message.encode("utf-8"), {"Content-Type": "text/plain"})


HOLD_MAX_S = 60.0  # a held answer is sent after this, released or not (a test that forgot)


@dataclass
class Hold:
    """A request to hold: `arrived` is set once it was processed and is held, `release` sends
    its answer (to a client that may be gone)."""

    method: str
    skip: int
    arrived: threading.Event = field(default_factory=threading.Event)
    release: threading.Event = field(default_factory=threading.Event)


@dataclass(frozen=True)
class _Fault:
    """A queued fault: answer instead (nothing processed), add a Backoff header to the real
    answer, or process the request and drop the connection without answering."""

    answer: Answer | None = None
    backoff: int | None = None
    drop: bool = False


class _Handler(BaseHTTPRequestHandler):
    server: LoopbackServer[ZoteroServer]
    timeout = 5
    protocol_version = "HTTP/1.0"

    def log_message(self, format: str, *args: Any) -> None:
        """No access log: tests read `requests`."""

    def _any(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        self.server.fake._serve(handler=self, body=body)

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _any


class ZoteroServer:
    """Base of FakeZotero: subclasses define `answer(method=, path=, query=, headers=, body=)`."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._log: list[Request] = []
        self._faults: deque[_Fault] = deque()
        self._holds: list[Hold] = []
        self._serving: Serving[ZoteroServer] | None = None

    def __enter__(self) -> Self:
        """Start serving on a free loopback port."""
        self._serving = Serving(fake=self, handler=_Handler, name="fake-zotero")
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        """Stop serving and join every thread."""
        if self._serving is not None:
            self._serving.close()
        self._serving = None

    @property
    def url(self) -> str:
        """http://127.0.0.1:PORT of the running fake, no trailing slash."""
        if self._serving is None:
            raise RuntimeError("the fake is not running: use it as a context manager")
        return self._serving.url

    @property
    def requests(self) -> list[Request]:
        """Every request so far in arrival order, faulted ones included."""
        with self._lock:
            return list(self._log)

    def fail_next(
        self,
        *,
        status: int = 503,
        retry_after: int | None = None,
        backoff: int | None = None,
        times: int = 1,
    ) -> None:
        """Answer the next `times` requests with `status` before processing them (Retry-After
        and Backoff when given)."""
        answer = text(status=status, message=REASONS.get(status, "Error"))
        if retry_after is not None:
            answer.headers["Retry-After"] = str(retry_after)
        if backoff is not None:
            answer.headers["Backoff"] = str(backoff)
        with self._lock:
            self._faults.extend(_Fault(answer=answer) for _ in range(times))

    def answer_next(self, answer: Answer) -> None:
        """Answer the next request with exactly `answer` (nothing processed)."""
        with self._lock:
            self._faults.append(_Fault(answer=answer))

    def backoff_next(self, *, seconds: int) -> None:
        """Process the next request normally and add `Backoff: seconds` to its answer."""
        with self._lock:
            self._faults.append(_Fault(backoff=seconds))

    def drop_next(self) -> None:
        """Process the next request (a write is stored) and close the connection unanswered."""
        with self._lock:
            self._faults.append(_Fault(drop=True))

    def hold(self, *, method: str, skip: int = 0) -> Hold:
        """Process the (skip+1)-th coming request of `method` (a write is stored), then keep its
        answer until the test releases it: the moment to kill a client whose write is stored
        but not yet answered."""
        held = Hold(method=method.upper(), skip=skip)
        with self._lock:
            self._holds.append(held)
        return held

    def _held(self, *, method: str) -> Hold | None:
        """The hold this request meets, counting it against the others of its method."""
        with self._lock:
            for held in self._holds:
                if held.method == method and not held.arrived.is_set():
                    if held.skip == 0:
                        held.arrived.set()
                        return held
                    held.skip -= 1
        return None

    def answer(
        self, *, method: str, path: str, query: str, headers: dict[str, str], body: bytes
    ) -> Answer:
        """What a request gets when no fault is queued."""
        raise NotImplementedError

    def _serve(self, *, handler: _Handler, body: bytes) -> None:
        """Answer one request on its handler thread."""
        path, _, query = handler.path.partition("?")
        headers = dict(handler.headers)
        with self._lock:
            fault = self._faults.popleft() if self._faults else _Fault()
        answer = fault.answer or self.answer(
            method=handler.command, path=path, query=query, headers=headers, body=body
        )
        if fault.backoff is not None:
            answer.headers["Backoff"] = str(fault.backoff)
        with self._lock:
            self._log.append(
                Request(
                    handler.command, handler.path, headers, body, 0 if fault.drop else answer.status
                )
            )
        if fault.drop:
            handler.close_connection = True
            return
        held = self._held(method=handler.command) if fault.answer is None else None
        if held is not None:
            held.release.wait(timeout=HOLD_MAX_S)
        handler.send_response(answer.status, REASONS.get(answer.status))
        handler.send_header("Zotero-API-Version", "3")
        for name, value in answer.headers.items():
            handler.send_header(name, value)
        if answer.status not in (204, 304):
            handler.send_header("Content-Length", str(len(answer.body)))
        handler.end_headers()
        if answer.status not in (204, 304):
            handler.wfile.write(answer.body)
