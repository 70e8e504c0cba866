"""One request's time, bounded as a whole: a socket timeout bounds each read, not the request,
so a server sending a byte a second would never trip it. Shared by bot.lookup, bot.enrich and
the sources' fetcher (bot.outbound.fetch)."""

from __future__ import annotations

import contextlib
import http.client
import socket
import threading
import time
from collections.abc import Callable
from typing import Any

# How a socket is opened: socket.create_connection's signature (address, timeout, *more).
Dial = Callable[..., socket.socket]


class Deadline:
    """Every socket the request opens is watched, and shut when the time is up, whatever it is
    waiting for (connect, TLS, headers, body). `dial` opens each socket (the address check
    of bot.outbound.address goes there); plain socket.create_connection by default."""

    def __init__(self, *, seconds: float, dial: Dial = socket.create_connection) -> None:
        """Start the clock."""
        self.end = time.monotonic() + seconds
        self.expired = False
        self._dial = dial
        self._lock = threading.Lock()
        self._watched: list[socket.socket] = []
        self._timer = threading.Timer(seconds, self._expire)
        self._timer.daemon = True
        self._timer.start()

    def left(self) -> float:
        """Seconds left; TimeoutError once there are none."""
        left = self.end - time.monotonic()
        if left <= 0 or self.expired:
            raise TimeoutError("the deadline passed")
        return left

    def over(self) -> bool:
        """Whether the time is up."""
        return self.expired or time.monotonic() >= self.end

    def connect(self, address: tuple[str, int], timeout: Any = None, *more: Any) -> socket.socket:
        """`dial`, bounded by the time left, the socket watched. A duplicate of it is kept: TLS
        takes the original's descriptor over, a shutdown of either ends both."""
        limit = min(timeout, self.left()) if isinstance(timeout, int | float) else self.left()
        sock = self._dial(address, limit, *more)
        with self._lock:
            self._watched.append(sock.dup())
        if self.expired:
            self._expire()
        return sock

    def _expire(self) -> None:
        """Time is up: shut every socket, so a blocked read returns at once."""
        with self._lock:
            self.expired = True
            for sock in self._watched:
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)

    def close(self) -> None:
        """Stop the clock and let go of the duplicates."""
        self._timer.cancel()
        self._timer.join()
        with self._lock:
            for sock in self._watched:
                sock.close()
            self._watched.clear()


class WatchedConnection(http.client.HTTPConnection):
    """An HTTP connection whose socket the deadline watches."""

    def __init__(self, host: str, *, deadline: Deadline, **options: Any) -> None:
        """As HTTPConnection; http.client opens its socket through _create_connection."""
        super().__init__(host, **options)
        self._create_connection = deadline.connect


class WatchedTlsConnection(http.client.HTTPSConnection):
    """An HTTPS connection whose socket (opened before the handshake) the deadline watches; the
    certificate is still checked against the host name, whatever address `dial` connected to."""

    def __init__(self, host: str, *, deadline: Deadline, **options: Any) -> None:
        """As HTTPSConnection, with the default, verifying TLS context."""
        super().__init__(host, **options)
        self._create_connection = deadline.connect
