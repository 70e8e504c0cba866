"""The HTTP part every source fake shares: a loopback server, the request log, faults, pacing.

Each fake (FakeArxiv, FakeFeeds, FakeCrossref) is a SourceServer whose `answer` says what one
GET gets; this module records the request, applies a queued fault, stall or hold, enforces the
spacing the real service asks for, and writes the answer (slowly, when told to).
"""

from __future__ import annotations

import threading
import time
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from types import TracebackType
from typing import Any, NamedTuple, Self
from urllib.parse import urlsplit

from tests.loopback_http import LoopbackServer, Serving

REASONS = {
    200: "OK",
    304: "Not Modified",
    400: "Bad Request",
    403: "Forbidden",
    404: "Not Found",
    429: "Too Many Requests",
    500: "Internal Server Error",
    502: "Bad Gateway",
    503: "Service Unavailable",
}


class Request(NamedTuple):
    """One request as it arrived: path with its query, monotonic time, headers, the status sent."""

    path: str
    at: float
    headers: dict[str, str]
    status: int

    def header(self, name: str) -> str | None:
        """A request header by name, case-insensitively (None when absent)."""
        wanted = name.lower()
        return next((v for k, v in self.headers.items() if k.lower() == wanted), None)


@dataclass
class Answer:
    """What one request gets: status, headers, body; `length` False sends no Content-Length
    (the body then ends when the connection closes, as a server that streams does)."""

    status: int
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)
    length: bool = True


@dataclass(frozen=True)
class Hold:
    """One answer held until the test says go: `arrived` is set once the request is in (the
    client is then waiting for its headers), and the answer goes out when `go` is set or the
    fake stops. For a test that must act while a request is in flight (kill the client)."""

    arrived: threading.Event = field(default_factory=threading.Event)
    go: threading.Event = field(default_factory=threading.Event)


@dataclass(frozen=True)
class Drip:
    """Send the body `chunk` bytes at a time, `every` seconds apart (a slow server)."""

    chunk: int
    every: float


def text_answer(*, status: int, text: str, kind: str = "text/plain; charset=utf-8") -> Answer:
    """A short answer with a content type."""
    return Answer(status, text.encode("utf-8"), {"Content-Type": kind})


class _Handler(BaseHTTPRequestHandler):
    server: LoopbackServer[SourceServer]
    timeout = 5  # a client that connects and never sends must not hold server_close() long
    protocol_version = "HTTP/1.0"  # one request a connection, closed after the body

    def log_message(self, format: str, *args: Any) -> None:
        """No access log: tests read `requests`."""

    def do_GET(self) -> None:
        """Answer through the fake."""
        self.server.fake._serve(handler=self)


class SourceServer:
    """Base of the fakes: subclasses define `answer(path=, query=, headers=)`."""

    name = "source"

    def __init__(self, *, spacing: float = 0.0, retry_after: int = 3) -> None:
        """`spacing`: seconds the service wants between requests; one sooner is answered 429
        with Retry-After `retry_after` (0 turns pacing off)."""
        self.spacing = spacing
        self.retry_after = retry_after
        self._lock = threading.Lock()
        self._log: list[Request] = []
        self._faults: deque[Answer] = deque()
        self._stalls: deque[float] = deque()
        self._holds: deque[Hold] = deque()
        self._held: list[Hold] = []  # taken by a request: let go when the fake stops
        self._drips: deque[Drip] = deque()
        self._last_served: float | None = None
        self._in_flight = 0
        self.max_in_flight = 0
        self._counted = threading.local()  # whether this handler thread's request counted off
        self._stopping = threading.Event()
        self._serving: Serving[SourceServer] | None = None

    def __enter__(self) -> Self:
        """Start serving on a free loopback port."""
        if self._serving is not None:
            raise RuntimeError(f"{type(self).__name__} is already running")
        self._stopping.clear()
        self._serving = Serving(fake=self, handler=_Handler, name=f"fake-{self.name}")
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        """Stop serving, cut stalled and dripping answers short, join every thread."""
        self._stopping.set()
        with self._lock:
            for hold in self._held:
                hold.go.set()
        if self._serving is not None:
            self._serving.close()
        self._serving = None

    @property
    def url(self) -> str:
        """http://127.0.0.1:PORT of the running fake, no trailing slash."""
        if self._serving is None:
            raise RuntimeError(f"{type(self).__name__} is not running: use it as a context manager")
        return self._serving.url

    @property
    def requests(self) -> list[Request]:
        """Every request so far in arrival order, refused and failed ones included."""
        with self._lock:
            return list(self._log)

    def fail_next(
        self, *, status: int = 503, retry_after: int | None = None, times: int = 1
    ) -> None:
        """Answer the next `times` requests with `status` (and Retry-After when given)."""
        headers = {"Retry-After": str(retry_after)} if retry_after is not None else {}
        answer = text_answer(status=status, text=REASONS.get(status, "Error"))
        with self._lock:
            for _ in range(times):
                self._faults.append(Answer(status, answer.body, {**answer.headers, **headers}))

    def answer_next(self, answer: Answer) -> None:
        """Answer the next request with exactly `answer` (a body of any shape)."""
        with self._lock:
            self._faults.append(answer)

    def stall_next(self, *, seconds: float) -> None:
        """Hold the next answer `seconds` before its headers (cut short when the fake stops)."""
        with self._lock:
            self._stalls.append(seconds)

    def hold_next(self) -> Hold:
        """Hold the next answer, before its headers, until the returned Hold's `go` is set (or
        the fake stops); its `arrived` says when that request came. Unlike a stall, no
        deadline: the test decides, after whatever it did meanwhile."""
        hold = Hold()
        with self._lock:
            self._holds.append(hold)
        return hold

    def drip_next(self, *, chunk: int, every: float) -> None:
        """Send the next answer's body `chunk` bytes at a time, `every` seconds apart."""
        with self._lock:
            self._drips.append(Drip(chunk, every))

    def answer(self, *, path: str, query: str, headers: dict[str, str]) -> Answer:
        """What a GET of `path`?`query` gets when no fault is queued."""
        raise NotImplementedError

    def _paced(self, *, now: float) -> Answer | None:
        """429 when this request comes sooner than `spacing` after the last one served."""
        last = self._last_served
        if self.spacing and last is not None and now - last < self.spacing:
            answer = text_answer(status=429, text="Rate exceeded.")
            answer.headers["Retry-After"] = str(self.retry_after)
            return answer
        self._last_served = now
        return None

    def _decide(
        self, *, target: str, headers: dict[str, str]
    ) -> tuple[Answer, float, Hold | None, Drip | None]:
        """The answer to one request, its stall, hold and drip; logs it."""
        url = urlsplit(target)
        now = time.monotonic()
        with self._lock:
            stall = self._stalls.popleft() if self._stalls else 0.0
            hold = self._holds.popleft() if self._holds else None
            if hold is not None:
                self._held.append(hold)
                if self._stopping.is_set():  # came after __exit__ let the others go
                    hold.go.set()
            drip = self._drips.popleft() if self._drips else None
            answer = self._faults.popleft() if self._faults else self._paced(now=now)
        if answer is None:
            answer = self.answer(path=url.path, query=url.query, headers=headers)
        with self._lock:
            self._log.append(Request(target, now, headers, answer.status))
        return answer, stall, hold, drip

    def _serve(self, *, handler: _Handler) -> None:
        """Answer one request on its handler thread."""
        self._counted.off = False
        with self._lock:
            self._in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self._in_flight)
        try:
            answer, stall, hold, drip = self._decide(
                target=handler.path, headers=dict(handler.headers)
            )
            if hold is not None:
                hold.arrived.set()
                hold.go.wait()  # set by the test, or by __exit__ (which lets every hold go)
            if stall:
                self._stopping.wait(stall)
            handler.send_response(answer.status, REASONS.get(answer.status))
            for name, value in answer.headers.items():
                handler.send_header(name, value)
            if answer.length:
                handler.send_header("Content-Length", str(len(answer.body)))
            handler.end_headers()
            self._write(handler=handler, body=answer.body, drip=drip)
        finally:
            self._landed()

    def _landed(self) -> None:
        """A request is no longer in flight: counted off once, just before its last bytes go
        (the client may send its next request the moment they arrive, before this handler
        thread would run again: counting off after them made two look in flight at once)."""
        with self._lock:
            if self._in_flight > 0 and not getattr(self._counted, "off", False):
                self._in_flight -= 1
                self._counted.off = True

    def _write(self, *, handler: _Handler, body: bytes, drip: Drip | None) -> None:
        """The body at once, or dripped (stopping early when the fake stops)."""
        if drip is None:
            self._landed()
            handler.wfile.write(body)
            return
        for start in range(0, len(body), drip.chunk):
            if start + drip.chunk >= len(body):
                self._landed()
            handler.wfile.write(body[start : start + drip.chunk])
            handler.wfile.flush()
            if self._stopping.wait(drip.every):
                return
