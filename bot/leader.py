"""One scheduler among replicas: whoever holds a PostgreSQL advisory lock leads.

The lock is a session lock on a connection of its own (not from the pool, which would hand
the session, and with it the lock, to whatever borrows it next). The database ends that
session, and so frees the lock, as soon as the leader's process dies: a kill -9 closes its
socket. The others ask for the lock every `interval` seconds and the first to get it runs the
catch-up sweep at once. The one-post-per-channel-and-date rule stays the last guard.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from sqlalchemy import Connection, create_engine, text
from sqlalchemy.pool import NullPool

from bot.health import Heartbeat
from bot.metrics import LEADER

log = logging.getLogger("paperclub")

# Any number fixed for the project (the migration lock uses another).
LEADER_LOCK_KEY = 7_311_991
INTERVAL_SECONDS = 1.0


class Leadership:
    """Asks for the lock until it holds it, then checks every interval that it still does."""

    def __init__(
        self,
        *,
        url: str,
        on_lead: Callable[[], None],
        on_lose: Callable[[], None],
        heartbeat: Heartbeat,
        interval: float = INTERVAL_SECONDS,
    ) -> None:
        """Nothing is asked until start."""
        # NullPool: the connection is opened for this loop alone and closed when it is lost.
        self._engine = create_engine(url, poolclass=NullPool, connect_args={"connect_timeout": 5})
        self._on_lead, self._on_lose = on_lead, on_lose
        self._heartbeat = heartbeat
        self._interval = interval
        self._connection: Connection | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="leadership", daemon=True)
        self.leading = False

    def start(self) -> None:
        """Ask for the lock now, then every interval."""
        LEADER.set(0)
        self._thread.start()

    def _loop(self) -> None:
        """Ask or check, once an interval, until closed."""
        while not self._stop.is_set():
            try:
                self._step()
            except Exception:  # the database went away: whatever we held is lost
                log.warning("the leadership connection failed; asking again", exc_info=True)
                self._lost()
            self._stop.wait(self._interval)

    def _step(self) -> None:
        """Take the lock if free, or confirm the session holding it is still there."""
        if self._connection is None:
            self._connection = self._engine.connect().execution_options(
                isolation_level="AUTOCOMMIT"
            )
        if self.leading:
            self._connection.execute(text("SELECT 1"))  # the session, and so the lock, lives
            return
        self._heartbeat.beat(role="standby")
        got = self._connection.execute(
            text("SELECT pg_try_advisory_lock(:key)"), {"key": LEADER_LOCK_KEY}
        ).scalar()
        if got:
            self.leading = True
            LEADER.set(1)
            log.info("leading: this replica runs the scheduler")
            self._on_lead()

    def _lost(self) -> None:
        """Stop leading and drop the broken connection."""
        if self._connection is not None:
            try:
                self._connection.close()
            except Exception:  # already broken; closing is only tidying up
                log.debug("closing the lost leadership connection failed", exc_info=True)
            self._connection = None
        if self.leading:
            self.leading = False
            LEADER.set(0)
            log.warning("lost the lead: this replica stands by")
            self._on_lose()

    def stop_asking(self) -> None:
        """End the loop (the lock, if held, stays held until close)."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=10)

    def close(self) -> None:
        """Stop asking and let go of the lock (closing the session frees it at once)."""
        self.stop_asking()
        if self._connection is not None:
            self._connection.close()
            self._connection = None
        self._engine.dispose()
        LEADER.set(0)
