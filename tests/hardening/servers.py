"""Local servers that misbehave as the reported ones did: one that drips its answer a byte at a
time, and one that answers from a table (a redirect elsewhere, a 404), noting every request."""

from __future__ import annotations

import socketserver
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Drip:
    """What a drip server sends and how: `sent_at_once` first, then `dripped` a byte per gap."""

    sent_at_once: bytes
    dripped: bytes
    gap: float
    requests: int = 0
    hung_up: threading.Event = field(default_factory=threading.Event)
    stopping: threading.Event = field(default_factory=threading.Event)
    url: str = ""


class _DripServer(socketserver.ThreadingTCPServer):
    daemon_threads = False  # daemon threads are not tracked, so server_close() could not join them
    block_on_close = True  # server_close() joins the handler threads
    allow_reuse_address = True

    def __init__(self, *, drip: Drip) -> None:
        """Bind a free loopback port."""
        super().__init__(("127.0.0.1", 0), _DripHandler)
        self.drip = drip


class _DripHandler(socketserver.BaseRequestHandler):
    server: _DripServer

    def handle(self) -> None:
        """Read the request's head, then answer slowly until done, hung up on, or stopped."""
        drip, sock = self.server.drip, self.request
        sock.settimeout(5)
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = sock.recv(4096)
            if not chunk:
                return
            head += chunk
        drip.requests += 1
        try:
            sock.sendall(drip.sent_at_once)
            for byte in drip.dripped:
                if drip.stopping.wait(drip.gap):
                    return
                sock.sendall(bytes([byte]))
        except OSError:  # the client gave up and closed: what the test waits for
            drip.hung_up.set()


@contextmanager
def drip_server(*, sent_at_once: bytes, dripped: bytes, gap: float) -> Iterator[Drip]:
    """A server on 127.0.0.1 answering every request slowly; `url` is its base."""
    drip = Drip(sent_at_once=sent_at_once, dripped=dripped, gap=gap)
    server = _DripServer(drip=drip)
    drip.url = f"http://127.0.0.1:{server.server_address[1]}"
    with _serving(server=server, before_stop=drip.stopping.set):
        yield drip


@contextmanager
def _serving(*, server: Any, before_stop: Callable[[], None] = lambda: None) -> Iterator[None]:
    """Serve on a thread of its own while the block runs; then stop, close and join it."""
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.start()
    try:
        yield
    finally:
        before_stop()
        server.shutdown()
        server.server_close()
        thread.join()


@dataclass
class Table:
    """Answers by path (status, headers, body); every request's path as it arrived."""

    routes: dict[str, tuple[int, dict[str, str], bytes]] = field(default_factory=dict)
    paths: list[str] = field(default_factory=list)
    url: str = ""


class _TableServer(ThreadingHTTPServer):
    daemon_threads = False  # daemon threads are not tracked, so server_close() could not join them
    block_on_close = True

    def __init__(self, *, host: str, table: Table) -> None:
        """Bind a free port on `host`."""
        super().__init__((host, 0), _TableHandler)
        self.table = table

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Quiet about clients that hang up."""
        if not isinstance(sys.exc_info()[1], OSError):
            super().handle_error(request, client_address)


class _TableHandler(BaseHTTPRequestHandler):
    server: _TableServer
    timeout = 5

    def log_message(self, format: str, *args: Any) -> None:
        """No access log: tests read `paths`."""

    def do_GET(self) -> None:
        """Note the path, answer from the table (404 for a path it lacks)."""
        table = self.server.table
        table.paths.append(self.path)
        status, headers, body = table.routes.get(self.path.partition("?")[0], (404, {}, b""))
        self.send_response(status)
        for name, value in {"Content-Length": str(len(body)), **headers}.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)


@contextmanager
def table_server(*, host: str = "127.0.0.1") -> Iterator[Table]:
    """An HTTP server on `host` answering from its table; `url` is its base."""
    table = Table()
    server = _TableServer(host=host, table=table)
    table.url = f"http://{host}:{server.server_address[1]}"
    with _serving(server=server):
        yield table
