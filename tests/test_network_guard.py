"""The suite reaches loopback only: pytest-socket (pyproject's --allow-hosts) refuses the rest."""

from __future__ import annotations

import socket

import pytest
from pytest_socket import SocketConnectBlockedError


def test_addresses_beyond_loopback_are_refused() -> None:
    # 192.0.2.1 is TEST-NET-1, 2001:db8::1 the IPv6 documentation range: neither is loopback.
    for family, address in (
        (socket.AF_INET, ("192.0.2.1", 80)),
        (socket.AF_INET6, ("2001:db8::1", 80)),
    ):
        # The plugin warns (an error here: warnings are errors), then refuses the connect.
        with socket.socket(family) as probe, pytest.raises(SocketConnectBlockedError):  # noqa: SIM117
            with pytest.warns(UserWarning, match=r"allowed: \"127\.0\.0\.0/8,::1\""):
                probe.connect(address)


def test_loopback_is_allowed() -> None:
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        with socket.create_connection(server.getsockname(), timeout=5):
            accepted, _ = server.accept()
            accepted.close()
