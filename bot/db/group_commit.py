"""Group commit: write units of work that arrive together share one transaction and one commit.

The database has one writer at a time anyway (SQLite's write lock; on PostgreSQL the rows a
vote touches), and with `synchronous=FULL` the commit's fsync is the dearest part of a vote.
So write units of work take turns on one open transaction, each inside its own SAVEPOINT (one
that fails rolls back alone), and the last of the units waiting when a turn ends commits them
all. Nobody waits for company: a unit that finds no one queued behind it commits at once, and
a unit returns only after the commit that holds its writes, so an acknowledged event is
durable exactly as before.

A group is a Core connection and its transaction. The votes, reactions and replies that make
up nearly every write run Core statements on it (bot/db/activity_sql.py), so a group opens an
ORM Session, joined to that transaction, only when a unit asks for one: the Session's own
bookkeeping used to cost a vote more than its statements.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Connection, Engine, RootTransaction
from sqlalchemy.orm import Session

from bot.db.engine import BUSY_TIMEOUT_MS, sqlite_driver

# A steady stream of writers would otherwise keep one group open, and its first unit waiting
# for its commit, for as long as the stream lasts.
MAX_UNITS = 64


class GroupCommitFailed(RuntimeError):
    """The shared commit failed: none of the group's writes were kept."""


class TurnTimeout(GroupCommitFailed):
    """A unit's bounded wait for its turn ended first (another writer of this process held the
    write lock, itself waiting for it or slow): nothing of the unit was written."""


class WriteScope:
    """One open transaction and the units of work inside it: what a unit writes through."""

    def __init__(self, *, engine: Engine, wait: float | None = None) -> None:
        """Check a connection out and begin (on SQLite: BEGIN IMMEDIATE, see bot/db/engine.py);
        `wait`: the seconds the write lock may be waited for (else the engine's own ~10 s)."""
        self.connection: Connection = engine.connect()
        self.raw: Any = sqlite_driver(connection=self.connection)  # None but on SQLite
        try:
            self.transaction: RootTransaction = self._begin(wait=wait)
        except BaseException:
            self.connection.close()
            raise
        self._session: Session | None = None
        self.units = 0  # units done so far
        self.broken = False  # roll back, not commit: a unit's failure could not be undone alone
        self.error: BaseException | None = None
        self.done = threading.Event()
        self._after_commit: list[Callable[[], None]] = []

    def _begin(self, *, wait: float | None) -> RootTransaction:
        """Begin, waiting at most `wait` seconds for the lock. SQLite: busy_timeout bounds the
        BEGIN IMMEDIATE (the one statement of a group that waits for it) and is set back for
        the pooled connection's next user. PostgreSQL: lock_timeout bounds every row lock of
        the group's transaction (SET LOCAL ends with it)."""
        if wait is None:
            return self.connection.begin()
        millis = max(1, int(wait * 1000))
        if self.raw is None:
            transaction = self.connection.begin()
            self.connection.exec_driver_sql(f"SET LOCAL lock_timeout = {millis}")
            return transaction
        self.raw.execute(f"PRAGMA busy_timeout={millis}")
        try:
            return self.connection.begin()
        finally:
            self.raw.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")

    def after_commit(self, callback: Callable[[], None]) -> None:
        """Run `callback` once the group's transaction is committed (never if it is not)."""
        self._after_commit.append(callback)

    @property
    def session(self) -> Session:
        """An ORM Session inside the group's transaction, opened on first use."""
        if self._session is None:
            # rollback_only: the Session never commits the group's transaction; a failed
            # flush rolls all of it back, which marks the group broken (see _unit).
            self._session = Session(
                bind=self.connection, expire_on_commit=False, join_transaction_mode="rollback_only"
            )
        return self._session

    def flush(self) -> None:
        """Send the unit's ORM changes, if it made any, before its savepoint ends."""
        if self._session is not None:
            self._session.flush()

    def forget_rows(self) -> None:
        """Rows loaded by an earlier unit would be handed out again as they were then, not as
        that unit's Core updates left them: each unit starts with an empty identity map."""
        if self._session is not None and len(self._session.identity_map):
            self._session.expunge_all()

    @property
    def active(self) -> bool:
        """Whether the transaction can still be committed."""
        return self.transaction.is_active and (self._session is None or self._session.is_active)

    def finish(self) -> None:
        """Commit (or roll back when broken), give the connection back, wake the units."""
        try:
            if self._session is not None:
                self._session.close()  # joined: closing leaves the transaction as it is
            if self.broken:
                self.error = GroupCommitFailed("a unit of work broke the shared transaction")
                self.transaction.rollback()
            else:
                self.transaction.commit()
        except BaseException as error:  # every unit is told; none may ack a lost write
            self.error = error
            # A failed COMMIT can leave the driver's transaction open, and SQLAlchemy, counting
            # it as ended, would pool the connection so; the next group's BEGIN would fail.
            self.connection.invalidate()
        else:
            if self.error is None:  # a broken group was rolled back: nothing to follow up
                for callback in self._after_commit:
                    callback()
        finally:
            try:
                self.connection.close()
            finally:
                self.done.set()


class GroupCommit:
    """Hands out turns on the shared write transaction; see the module's docstring."""

    def __init__(self, *, engine: Engine) -> None:
        """Write through connections of this engine (one per group)."""
        self._engine = engine
        self._turn = threading.Lock()
        self._queue = threading.Lock()
        self._queued = 0
        self._group: WriteScope | None = None
        self._inside = threading.local()

    @property
    def queued(self) -> int:
        """How many units are waiting for their turn (they will join the open group)."""
        with self._queue:
            return self._queued

    @contextmanager
    def __call__(self, *, wait: float | None = None) -> Iterator[WriteScope]:
        """One unit of work: its turn on the group's transaction; returns once committed.
        `wait`: how many seconds the unit may wait for its turn and the write lock together
        (a person's click must be answered within Slack's 3 s); None waits as long as the
        engine does. Past it: TurnTimeout, or the driver's "database is locked"."""
        if getattr(self._inside, "active", False):
            # The turn is not re-entrant: a nested write would wait for itself for ever.
            raise RuntimeError("a write unit of work was opened inside another on this thread")
        deadline = None if wait is None else time.monotonic() + wait
        with self._queue:
            self._queued += 1
        got = self._turn.acquire(timeout=-1 if wait is None else wait)
        with self._queue:
            self._queued -= 1
            # A unit that found us queued left its group open for us and let the turn go just
            # as the wait ended: take it after all, or that group would wait for ever. Under
            # _queue, as the holder's own choice is (see _pass_on), so one of the two sees it.
            got = got or self._turn.acquire(blocking=False)
        if not got:
            raise TurnTimeout(f"no turn on the write transaction within {wait} s")
        try:
            group = self._group
            if group is None:
                left = None if deadline is None else max(0.05, deadline - time.monotonic())
                group = self._group = WriteScope(engine=self._engine, wait=left)
        except BaseException:
            self._turn.release()
            raise
        self._inside.active = True
        try:
            yield from self._unit(group=group)
        finally:
            self._inside.active = False
            self._pass_on(group=group)
        group.done.wait()
        if group.error is not None:
            raise GroupCommitFailed("the write was not committed") from group.error

    def _pass_on(self, *, group: WriteScope) -> None:
        """After a unit: hand the open group to the next unit queued, else commit it (or roll
        it back) and let the turn go. Whether anyone is queued is decided under _queue
        together with the hand-over, so a waiter giving up meanwhile is seen by one side."""
        group.units += 1
        with self._queue:
            if self._queued and not group.broken and group.units < MAX_UNITS:
                self._turn.release()
                return
            self._group = None
        try:
            group.finish()
        finally:
            self._turn.release()

    @staticmethod
    def _unit(*, group: WriteScope) -> Iterator[WriteScope]:
        """Run one unit; after the group's first, inside a SAVEPOINT, so that its failure
        undoes its own writes only (the first one's failure leaves nothing else to keep, and
        alone, the common case when deliveries do not overlap, it pays for no savepoint)."""
        group.forget_rows()
        if group.units == 0:
            try:
                yield group
                group.flush()  # the next unit's forget_rows must not drop what this one added
            except BaseException:
                group.broken = True
                raise
            return
        try:
            savepoint = _Savepoint(group=group)
        except BaseException:
            group.broken = True
            raise
        try:
            yield group
            group.flush()
        except BaseException:
            try:
                savepoint.rollback()
            except BaseException:
                group.broken = True  # the connection is gone: nobody's writes survive
                raise
            # A failed ORM flush can end the whole transaction, not only this unit's part.
            group.broken = group.broken or not group.active
            raise
        try:
            savepoint.release()
        except BaseException:
            group.broken = True
            raise


class _Savepoint:
    """One unit's SAVEPOINT. On SQLite, said to the driver directly: SQLAlchemy compiles its
    savepoint statements afresh each time, which cost more than the vote they wrap. The
    engine hands SQLite no transaction control of its own (isolation_level None), and every
    ORM change of the unit is flushed before the release, so the session's view stays true."""

    NAME = "paperclub_unit"

    def __init__(self, *, group: WriteScope) -> None:
        """Open the savepoint on the group's connection."""
        self._raw = group.raw
        self._nested = group.connection.begin_nested() if self._raw is None else None
        if self._raw is not None:
            self._raw.execute(f"SAVEPOINT {self.NAME}")

    def release(self) -> None:
        """Keep the unit's writes (in the group's transaction)."""
        if self._nested is not None:
            self._nested.commit()
        else:
            self._raw.execute(f"RELEASE {self.NAME}")

    def rollback(self) -> None:
        """Undo the unit's writes only."""
        if self._nested is not None:
            self._nested.rollback()
        else:
            self._raw.execute(f"ROLLBACK TO {self.NAME}")
            self._raw.execute(f"RELEASE {self.NAME}")
