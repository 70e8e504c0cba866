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
from datetime import datetime

from sqlalchemy import Connection, Engine, create_engine, text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.pool import NullPool

from bot.runtime.health import Heartbeat
from bot.runtime.metrics import LEADER

log = logging.getLogger("paperclub")

# Any number fixed for the project (the migration lock uses another).
LEADER_LOCK_KEY = 7_311_991
# Held shared by every replica's leadership session for as long as it runs (the server frees
# it as soon as the process dies): who else is running, and since when, is read from it.
RUNNING_LOCK_KEY = 7_311_993
# The replicas holding it in this database (advisory locks are per database; pg_locks shows
# every database's), other than the asking session, whose session began before a moment
# (pg_locks shows a bigint key's low half in objid, its high half in classid).
_OLDER_REPLICAS = text(
    "SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
    "WHERE l.locktype = 'advisory' AND l.classid = 0 AND l.objid = :key AND l.objsubid = 1 "
    "AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database()) "
    "AND l.granted AND a.pid <> pg_backend_pid() AND a.backend_start < :before"
)
INTERVAL_SECONDS = 1.0
# A leader that stops asking (frozen: SIGSTOP, a paused container, a stalled VM, a lost
# network) must lose the lock even though its kernel still answers: the server ends a session
# idle this long (the loop asks every second), and TCP keepalives end a dead peer's session.
_SESSION = {
    "connect_timeout": 5,
    "keepalives": 1,
    "keepalives_idle": 5,
    "keepalives_interval": 2,
    "keepalives_count": 3,
    "tcp_user_timeout": 10_000,
}
IDLE_SESSION_MS = 5_000
# A leader whose scheduler has not beaten for this long steps down, so that another replica
# runs the posts (its own stuck worker is not freed by it; /healthz says so meanwhile).
STEP_DOWN_AFTER_SECONDS = 120.0
# After stepping down, it asks again only after this long (alone, it is the only leader).
STEP_DOWN_PAUSE_SECONDS = 60.0


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
        self._engine = create_engine(url, poolclass=NullPool, connect_args=_SESSION)
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

    def _connect(self) -> Connection:
        """A session of its own, ended by the server once it idles past IDLE_SESSION_MS."""
        connection = self._engine.connect().execution_options(isolation_level="AUTOCOMMIT")
        try:
            connection.execute(text(f"SET idle_session_timeout = {IDLE_SESSION_MS}"))
        except DBAPIError:  # before PostgreSQL 14; keepalives still end a dead host's session
            log.warning(
                "this PostgreSQL has no idle_session_timeout; a frozen leader may keep the lead"
            )
        connection.execute(text("SELECT pg_advisory_lock_shared(:key)"), {"key": RUNNING_LOCK_KEY})
        return connection

    def _step(self) -> None:
        """Take the lock if free, or confirm the session holding it is still there."""
        if self._connection is None:
            self._connection = self._connect()
        if self.leading:
            self._connection.execute(text("SELECT 1"))  # the session, and so the lock, lives
            _, age = self._heartbeat.read()
            if age is not None and age > STEP_DOWN_AFTER_SECONDS:
                log.error("the scheduler has not run for %.0f s; stepping down", age)
                self._lost()
                self._stop.wait(STEP_DOWN_PAUSE_SECONDS)
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


def replica_running_since(*, engine: Engine, before: datetime) -> bool:
    """Whether another replica (its leadership session alive) has been running since before
    `before`: then it heard the platforms meanwhile, and a replica starting now lost nothing."""
    with engine.connect() as connection:
        found = connection.execute(_OLDER_REPLICAS, {"key": RUNNING_LOCK_KEY, "before": before})
        return bool(found.scalar())


def started_on_server(*, engine: Engine) -> datetime:
    """The database server's now: replicas' sessions are stamped by its clock, not ours."""
    with engine.connect() as connection:
        found = connection.execute(text("SELECT now()")).scalar_one()
    return found if isinstance(found, datetime) else datetime.fromisoformat(str(found))
