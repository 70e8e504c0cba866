"""The outbound address check: a feed URL is typed by a channel admin, so the bot must not be
sent to its own machine, the LAN or a cloud metadata address (169.254.169.254) by it, nor by a
redirect. The host is resolved once and the connection made to an address that was checked,
so a name that resolves differently a moment later (DNS rebinding) cannot slip past.
"""

from __future__ import annotations

import ipaddress
import socket
from typing import Any

from bot.outbound.deadline import Dial

Address = ipaddress.IPv4Address | ipaddress.IPv6Address


class AddressRefused(OSError):
    """The host resolves to an address the bot does not connect to (or does not resolve)."""


def _kind(*, address: Address, allow_private: bool) -> str | None:
    """Why an address is refused ("a loopback address"), or None when it may be asked.

    `allow_private` admits loopback and private (RFC 1918, unique local) addresses, for a feed on
    the LAN and for the tests' fakes on 127.0.0.1; link-local (where cloud metadata lives),
    multicast and unspecified addresses are refused always: no feed is served from them."""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    if address.is_link_local:
        return "a link-local address"
    if address.is_multicast:
        return "a multicast address"
    if address.is_unspecified:
        return "an unspecified address"
    if allow_private:
        return None
    if address.is_loopback:
        return "a loopback address"
    if address.is_private:
        return "a private address"
    if not address.is_global:
        return "a reserved address"
    return None


def checked_addresses(*, host: str, port: int, allow_private: bool) -> list[Any]:
    """getaddrinfo's answers for host:port, every one checked; AddressRefused when any is refused
    (a name resolving to one public and one private address is refused whole)."""
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as error:
        raise AddressRefused(f"{host} could not be resolved ({error})") from None
    if not found:
        raise AddressRefused(f"{host} could not be resolved")
    for *_, sockaddr in found:
        address = ipaddress.ip_address(str(sockaddr[0]).partition("%")[0])
        why = _kind(address=address, allow_private=allow_private)
        if why is not None:
            raise AddressRefused(f"{host} resolves to {address}, {why}: refused")
    return found


def guarded_dial(*, allow_private: bool) -> Dial:
    """A socket.create_connection that connects only to checked addresses (for a Deadline)."""

    def dial(address: tuple[str, int], timeout: float, *more: Any) -> socket.socket:
        """Connect to the first checked address that answers, as create_connection does."""
        host, port = address
        last: OSError | None = None
        for family, kind, proto, _, sockaddr in checked_addresses(
            host=host, port=port, allow_private=allow_private
        ):
            sock = socket.socket(family, kind, proto)
            try:
                sock.settimeout(timeout)
                sock.connect(sockaddr)
                return sock
            except OSError as error:
                sock.close()
                last = error
        raise last or AddressRefused(f"{host} could not be reached")

    return dial
