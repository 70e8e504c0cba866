"""The HTTP server under the fakes of outside services (sources, lookup, Zotero): a free
loopback port, a thread per request joined on close, quiet about clients that hang up."""

from __future__ import annotations

import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Generic, TypeVar

Fake = TypeVar("Fake")


class LoopbackServer(ThreadingHTTPServer, Generic[Fake]):
    """Serves `handler` on 127.0.0.1 at a free port; the handler answers through `fake`."""

    # Handler threads are joined by server_close(): leaving the fake leaves no thread behind
    # (daemon threads are not tracked, so server_close() could not join them).
    daemon_threads = False
    block_on_close = True
    # socketserver's backlog of 5 drops SYNs under a burst of parallel calls; the kernel
    # retries them only after a second.
    request_queue_size = 64

    def __init__(self, *, fake: Fake, handler: type[BaseHTTPRequestHandler]) -> None:
        """Bind a free loopback port."""
        super().__init__(("127.0.0.1", 0), handler)
        self.fake = fake

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Quiet about clients that hang up (a client that times out does it on purpose)."""
        if not isinstance(sys.exc_info()[1], OSError):
            super().handle_error(request, client_address)
