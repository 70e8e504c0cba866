"""A loopback TCP relay that can go silent: the link that died without a word.

A NAT that forgot a connection, or a laptop that slept, leaves both ends' sockets open while
no byte gets through; neither side hears a close. The relay passes bytes both ways until
`silence()`, then drops them and keeps every socket open.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Callable
from types import TracebackType
from urllib.parse import urlsplit


class Relay:
    """Relays connections on a port of its own to `target` (a ws:// URL's host and port)."""

    def __init__(self, *, target: str) -> None:
        parts = urlsplit(target)
        self._target = (parts.hostname or "127.0.0.1", parts.port or 80)
        self._listener = socket.create_server(("127.0.0.1", 0))
        self._silent = threading.Event()
        self._lock = threading.Lock()
        self._sockets: list[socket.socket] = []
        self._threads: list[threading.Thread] = []

    @property
    def url(self) -> str:
        """ws://127.0.0.1:PORT of the relay."""
        return f"ws://127.0.0.1:{self._listener.getsockname()[1]}"

    def silence(self) -> None:
        """From now on, drop every byte in both directions; close nothing."""
        self._silent.set()

    def __enter__(self) -> Relay:
        self._start(self._accept)
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        with contextlib.suppress(OSError):
            self._listener.shutdown(socket.SHUT_RDWR)  # wakes accept()
        with self._lock:
            sockets = list(self._sockets)
        for sock in sockets:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)  # wakes the pumps' recv()
        for thread in list(self._threads):
            thread.join()
        for sock in (self._listener, *sockets):
            sock.close()

    def _start(self, target: Callable[..., None], *args: object) -> None:
        thread = threading.Thread(target=target, args=args, name="relay", daemon=True)
        self._threads.append(thread)
        thread.start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return  # shut down
            upstream = socket.create_connection(self._target)
            with self._lock:
                self._sockets += [client, upstream]
            self._start(self._pump, client, upstream)
            self._start(self._pump, upstream, client)

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        while True:
            try:
                data = source.recv(65536)
            except OSError:
                return
            if not data:
                with contextlib.suppress(OSError):
                    sink.shutdown(socket.SHUT_WR)
                return
            if not self._silent.is_set():
                with contextlib.suppress(OSError):
                    sink.sendall(data)
