"""FakeScholar: one local HTTP server answering as the arXiv API and Crossref's REST API."""

from __future__ import annotations

import threading
import time
from collections import deque
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler
from types import TracebackType
from typing import Any, NamedTuple
from urllib.parse import parse_qs, urlsplit

from tests.loopback_http import LoopbackServer, Serving

from . import answers
from .answers import Answer
from .records import Record

SERVICES = ("arxiv", "crossref")
ARXIV_PATH = "/api/query"
CROSSREF_PREFIX = "/crossref"


class Request(NamedTuple):
    """One request as it arrived: which service, path with query, monotonic time, headers."""

    service: str
    path: str
    at: float
    headers: dict[str, str]


@dataclass(frozen=True)
class _Fault:
    """What a knob makes one answer: an HTTP error, or a 200 with a broken body."""

    status: int = 200
    retry_after: int | None = None
    malformed: bool = False


class _Handler(BaseHTTPRequestHandler):
    server: LoopbackServer[FakeScholar]
    # A client that connects and never sends must not hold server_close() for long.
    timeout = 5

    def log_message(self, format: str, *args: Any) -> None:
        """No access log: tests read `requests`."""

    def do_GET(self) -> None:
        """Answer through the fake, then close (HTTP/1.0, as BaseHTTPRequestHandler speaks)."""
        answer = self.server.fake._handle(path=self.path, headers=dict(self.headers.items()))
        data = answer.body.encode("utf-8")
        self.send_response(answer.status, answers.REASONS.get(answer.status))
        self.send_header("Content-Type", answer.kind)
        self.send_header("Content-Length", str(len(data)))
        for name, value in answer.headers.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)


def _service_of(*, path: str) -> str:
    """Which fake service a path belongs to ("other" for neither)."""
    if path == ARXIV_PATH:
        return "arxiv"
    if path == CROSSREF_PREFIX or path.startswith(CROSSREF_PREFIX + "/"):
        return "crossref"
    return "other"


class FakeScholar:
    """The arXiv API at `arxiv_url` and Crossref at `crossref_url`, with knobs for faults."""

    def __init__(self, records: list[Record] | None = None) -> None:
        """Serve `records` (the reading-list catalogue when None; [] for an empty fake)."""
        if records is None:
            from .reading_list import CATALOGUE

            records = CATALOGUE
        self._records = list(records)
        self._lock = threading.Lock()
        self._log: list[Request] = []
        self._faults: dict[str, deque[_Fault]] = {service: deque() for service in SERVICES}
        self._stalls: dict[str, deque[float]] = {service: deque() for service in SERVICES}
        # Set on exit so stalled answers end at once instead of holding shutdown hostage.
        self._stopping = threading.Event()
        self._serving: Serving[FakeScholar] | None = None

    def __enter__(self) -> FakeScholar:
        """Start serving on a free loopback port."""
        if self._serving is not None:
            raise RuntimeError("FakeScholar is already running")
        self._stopping.clear()
        self._serving = Serving(fake=self, handler=_Handler, name="fakescholar")
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        """Stop serving, release stalled answers, join every thread, close the socket."""
        self._stopping.set()
        if self._serving is not None:
            self._serving.close()
        self._serving = None

    @property
    def base_url(self) -> str:
        """http://127.0.0.1:PORT of the running fake."""
        if self._serving is None:
            raise RuntimeError("FakeScholar is not running: use it as a context manager")
        return self._serving.url

    @property
    def arxiv_url(self) -> str:
        """The arXiv API's query endpoint (ends with /api/query)."""
        return self.base_url + ARXIV_PATH

    @property
    def crossref_url(self) -> str:
        """Crossref's REST API base; /works and /works/{doi} hang under it."""
        return self.base_url + CROSSREF_PREFIX

    def add(self, record: Record) -> None:
        """Make one more paper known; requests arriving later see it."""
        with self._lock:
            self._records.append(record)

    @staticmethod
    def _check(service: str) -> None:
        """Refuse a service name the fake does not serve (a typo would make a knob idle)."""
        if service not in SERVICES:
            raise ValueError(f"service must be one of {SERVICES}, not {service!r}")

    def fail_next(
        self, service: str, status: int = 503, retry_after: int | None = None, times: int = 1
    ) -> None:
        """Answer the next `times` requests to `service` with `status` (and Retry-After)."""
        self._check(service)
        with self._lock:
            self._faults[service].extend([_Fault(status=status, retry_after=retry_after)] * times)

    def malformed_next(self, service: str) -> None:
        """Answer the next request to `service` 200 with a cut-off body (bad XML or JSON)."""
        self._check(service)
        with self._lock:
            self._faults[service].append(_Fault(malformed=True))

    def stall_next(self, service: str, seconds: float) -> None:
        """Hold the next answer of `service` for `seconds` (cut short when the fake stops)."""
        self._check(service)
        with self._lock:
            self._stalls[service].append(seconds)

    @property
    def requests(self) -> list[Request]:
        """Every request so far, in arrival order: (service, path, monotonic time, headers)."""
        with self._lock:
            return list(self._log)

    def count(self, service: str) -> int:
        """How many requests `service` has received, failed and stalled ones included."""
        with self._lock:
            return sum(1 for request in self._log if request.service == service)

    def _handle(self, *, path: str, headers: dict[str, str]) -> Answer:
        """Log a request, apply its service's pending stall and fault, then answer it."""
        url = urlsplit(path)
        service = _service_of(path=url.path)
        with self._lock:
            self._log.append(Request(service, path, time.monotonic(), headers))
            stalls, faults = self._stalls.get(service), self._faults.get(service)
            stall = stalls.popleft() if stalls else 0.0
            fault = faults.popleft() if faults else None
            records = list(self._records)
        if stall:
            self._stopping.wait(stall)
        if fault is not None:
            if fault.malformed:
                return answers.malformed(service=service, query=url.query)
            return answers.failure(status=fault.status, retry_after=fault.retry_after)
        params = parse_qs(url.query, keep_blank_values=True)
        if service == "arxiv":
            return answers.arxiv(records=records, query=url.query, params=params)
        if service == "crossref":
            rest = url.path.removeprefix(CROSSREF_PREFIX)
            return answers.crossref(records=records, rest=rest, params=params)
        return answers.not_found()
