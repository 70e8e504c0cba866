"""The HTTP server under the fakes of outside services (sources, lookup, Zotero): a free
loopback port, a thread per request joined on close, quiet about clients that hang up."""

from __future__ import annotations

import sys
import threading
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


class Serving(Generic[Fake]):
    """A LoopbackServer answering on a thread of its own, from its making to close(): what a
    fake's `with` block holds while it runs."""

    def __init__(self, *, fake: Fake, handler: type[BaseHTTPRequestHandler], name: str) -> None:
        """Bind a free loopback port and start serving."""
        self.server = LoopbackServer(fake=fake, handler=handler)
        self._thread = threading.Thread(
            target=self.server.serve_forever,
            kwargs={"poll_interval": 0.05},
            name=name,
            daemon=True,
        )
        self._thread.start()

    @property
    def url(self) -> str:
        """http://127.0.0.1:PORT, no trailing slash."""
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def close(self) -> None:
        """Stop serving, join the handler threads and the serving one, close the socket."""
        self.server.shutdown()
        self.server.server_close()
        self._thread.join()
