"""The server's limits, against the abuse that showed them: a 300 MiB unsigned body is refused
from its Content-Length before any of it is read, and 110 slow connections do not shut out
/healthz."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from contextlib import ExitStack

import pytest

from bot.web.server import MAX_BODY
from tests.faults.support import wait_until
from tests.web.conftest import Served


def _port(served: Served) -> int:
    """The server's port."""
    return int(served.base.rpartition(":")[2])


def _answer(connection: socket.socket) -> bytes:
    """Everything the server sends until it closes."""
    answer = b""
    while chunk := connection.recv(65536):
        answer += chunk
    return answer


@pytest.fixture
def healthy(served: Served) -> Iterator[Served]:
    """Served, with the scheduler running and its first heartbeat in."""
    served.wiring.start()
    wait_until(lambda: served.health()[0] == 200, timeout=10, what="a heartbeat")
    yield served


def test_a_300_mib_body_is_refused_before_it_is_sent(healthy: Served) -> None:
    with socket.create_connection(("127.0.0.1", _port(healthy)), timeout=5) as connection:
        # The headers alone: had the server waited for the body, recv would time out.
        connection.sendall(
            b"POST /slack/events HTTP/1.1\r\nHost: paperclub\r\n"
            b"Content-Type: application/json\r\nContent-Length: 314572800\r\n\r\n"
        )
        answer = _answer(connection)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert healthy.health()[0] == 200


def test_a_body_just_over_the_cap_is_refused_and_one_at_the_cap_reaches_the_route(
    healthy: Served,
) -> None:
    def post(size: int, *, body: bool) -> bytes:
        with socket.create_connection(("127.0.0.1", _port(healthy)), timeout=5) as connection:
            connection.sendall(
                b"POST /healthz HTTP/1.1\r\nHost: paperclub\r\nConnection: close\r\n"
                b"Content-Length: " + str(size).encode() + b"\r\n\r\n" + b"x" * size * body
            )
            return _answer(connection)

    # Over the cap, the answer comes without the body being sent (the server closes after it).
    assert post(MAX_BODY + 1, body=False).startswith(b"HTTP/1.1 413")
    assert post(MAX_BODY, body=True).startswith(b"HTTP/1.1 405")  # read whole; /healthz: GET


def test_110_slow_connections_do_not_stop_healthz(healthy: Served) -> None:
    with ExitStack() as slow:
        for _ in range(110):
            connection = slow.enter_context(
                socket.create_connection(("127.0.0.1", _port(healthy)), timeout=5)
            )
            connection.sendall(b"GET /healthz HTTP/1.1\r\nHost: paperclub\r\nX-Slow: ")
        status, body = healthy.health()
    assert status == 200 and body["healthy"] is True
