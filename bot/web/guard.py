"""What waitress cannot do, added to its server: a total deadline for each request's head and
body, and a cap on connections per address and in all, so slow clients cannot starve /healthz.

Waitress's own limits count the wrong things for this. `channel_timeout` closes a connection
only after that long in silence, so one header byte every 2 s keeps it open for ever;
`connection_limit` stops accepting once reached, so 1,100 such connections leave the health
check waiting in the listen backlog; `recv_bytes` and `max_request_header_size` bound memory,
not time. So the channel notes when it began reading a request, the server's maintenance (run
every `cleanup_interval` seconds) closes any that has read for longer than the deadline, and a
new connection over a cap makes room by closing the oldest connection that is not being served
(still sending its request, or idle between requests): a request sent at once, as a health
check sends it, is read before anyone else's trickle can push it out.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from waitress.channel import HTTPChannel
from waitress.server import TcpWSGIServer

log = logging.getLogger(__name__)

# Connections accepted in one turn of the poll loop, at most.
ACCEPT_BATCH = 64


class GuardedChannel(HTTPChannel):  # type: ignore[misc]  # waitress has no type hints
    """A connection that knows since when it has been reading a request (monotonic seconds;
    None between requests, where waitress's idle timeout applies)."""

    def __init__(self, server: GuardedServer, sock: Any, addr: Any, adj: Any, map: Any) -> None:
        """Registered by waitress, then counted against the caps (which may close it at once)."""
        # The first request's head is awaited from the connect on: a silent connection counts.
        self.reading_since: float | None = time.monotonic()
        super().__init__(server, sock, addr, adj, map=map)
        server.make_room(newcomer=self)

    def received(self, data: bytes) -> bool:
        """Hand the bytes to waitress's parser; a request begun starts the clock, and once
        every byte read belongs to complete requests it stops."""
        if self.reading_since is None:
            self.reading_since = time.monotonic()
        taken = bool(super().received(data))
        if self.request is None:
            self.reading_since = None
        return taken

    @property
    def idle(self) -> bool:
        """Nothing of it is being served or sent: closing it loses no answer."""
        return not (self.requests or self.total_outbufs_len or self.will_close)


class GuardedServer(TcpWSGIServer):  # type: ignore[misc]  # waitress has no type hints
    """Waitress's TCP server with GuardedChannel's deadline and the two caps."""

    channel_class = GuardedChannel

    def __init__(
        self, app: Any, *, request_seconds: float, per_address: int, total: int, **kw: Any
    ) -> None:
        """`request_seconds` for a request's head and body together; at most `per_address`
        connections from one address and `total` in all (waitress's own connection_limit is
        set above it, so waitress never stops accepting: that would shut out the health check
        along with the rest)."""
        self.request_seconds = request_seconds
        self.per_address = per_address
        self.total = total
        self.made_room = 0  # connections closed for the caps since the last maintenance
        self.accepted = 0  # connections accepted in all (each calls make_room once)
        super().__init__(app, connection_limit=total + 8, **kw)

    def handle_accept(self) -> None:
        """Accept what the backlog holds, up to ACCEPT_BATCH: waitress takes one connection a
        turn of its loop, and a turn visits every connection, so a burst of a thousand took
        a second to take in while the health check waited behind it in the backlog."""
        for _ in range(ACCEPT_BATCH):
            before = self.accepted
            super().handle_accept()
            if self.accepted == before:  # the backlog is empty (or the accept failed)
                return

    def maintenance(self, now: float) -> None:
        """Waitress's idle timeout, then the deadline: a request still being read after
        `request_seconds` is closed however steadily its bytes come."""
        super().maintenance(now)
        cutoff, late = time.monotonic() - self.request_seconds, 0
        for channel in list(self.active_channels.values()):
            since = getattr(channel, "reading_since", None)
            if since is not None and since < cutoff and not channel.will_close:
                channel.handle_close()
                late += 1
        if late or self.made_room:
            # One line a pass, not one a connection: a flood would flood the log too.
            log.warning(
                "closed %d connections whose request took over %g s and %d over the "
                "connection caps (%d per address, %d in all)",
                late,
                self.request_seconds,
                self.made_room,
                self.per_address,
                self.total,
            )
            self.made_room = 0

    def make_room(self, *, newcomer: GuardedChannel) -> None:
        """Keep the caps: over either, close the oldest idle connection (of the newcomer's
        address for the per-address cap); when every one is being served, the newcomer."""
        self.accepted += 1
        host = newcomer.addr[0] if newcomer.addr else None
        others = [c for c in self.active_channels.values() if c is not newcomer]
        same = [c for c in others if c.addr and c.addr[0] == host]
        for pool, cap in ((same, self.per_address), (others, self.total)):
            if len(pool) < cap:
                continue
            idle = [c for c in pool if isinstance(c, GuardedChannel) and c.idle]
            oldest = min(idle, key=lambda c: c.creation_time, default=newcomer)
            oldest.handle_close()
            self.made_room += 1
            if oldest is newcomer:
                return
            if oldest in others:
                others.remove(oldest)
