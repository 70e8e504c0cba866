"""Group commit: write units of work that arrive together share one transaction and one commit.

The database has one writer at a time anyway (SQLite's write lock; on PostgreSQL the rows a
vote touches), and with `synchronous=FULL` the commit's fsync is the dearest part of a vote.
So write units of work take turns on one open transaction, each inside its own SAVEPOINT (one
that fails rolls back alone), and the last of the units waiting when a turn ends commits them
all. Nobody waits for company: a unit that finds no one queued behind it commits at once, and
a unit returns only after the commit that holds its writes, so an acknowledged event is
durable exactly as before.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from sqlalchemy.orm import Session, sessionmaker

# A steady stream of writers would otherwise keep one group open, and its first unit waiting
# for its commit, for as long as the stream lasts.
MAX_UNITS = 64


class GroupCommitFailed(RuntimeError):
    """The shared commit failed: none of the group's writes were kept."""


@dataclass
class _Group:
    """One open transaction and the units of work inside it."""

    session: Session
    units: int = 0  # units done so far
    broken: bool = False  # roll back, not commit: a unit's failure could not be undone alone
    error: BaseException | None = None
    done: threading.Event = field(default_factory=threading.Event)


class GroupCommit:
    """Hands out turns on the shared write transaction; see the module's docstring."""

    def __init__(self, *, sessions: sessionmaker[Session]) -> None:
        """Write through sessions from this factory (one per group)."""
        self._sessions = sessions
        self._turn = threading.Lock()
        self._queue = threading.Lock()
        self._queued = 0
        self._group: _Group | None = None
        self._inside = threading.local()

    @property
    def queued(self) -> int:
        """How many units are waiting for their turn (they will join the open group)."""
        with self._queue:
            return self._queued

    @contextmanager
    def __call__(self) -> Iterator[Session]:
        """One unit of work: its turn on the group's session; returns once it is committed."""
        if getattr(self._inside, "active", False):
            # The turn is not re-entrant: a nested write would wait for itself for ever.
            raise RuntimeError("a write unit of work was opened inside another on this thread")
        with self._queue:
            self._queued += 1
        self._turn.acquire()
        with self._queue:
            self._queued -= 1
        self._inside.active = True
        group = self._group
        if group is None:
            group = self._group = _Group(session=self._sessions())
            group.session.begin()
        try:
            yield from self._unit(group=group)
        finally:
            self._inside.active = False
            try:
                group.units += 1
                with self._queue:
                    alone = self._queued == 0
                if alone or group.broken or group.units >= MAX_UNITS:
                    self._finish(group=group)
            finally:
                self._turn.release()
        group.done.wait()
        if group.error is not None:
            raise GroupCommitFailed("the write was not committed") from group.error

    @staticmethod
    def _unit(*, group: _Group) -> Iterator[Session]:
        """Run one unit; after the group's first, inside a SAVEPOINT, so that its failure
        undoes its own writes only (the first one's failure leaves nothing else to keep, and
        alone, the common case when deliveries do not overlap, it pays for no savepoint)."""
        # Rows loaded by an earlier unit would be handed out again as they were then, not as
        # that unit's Core updates left them: each unit starts with an empty identity map.
        if len(group.session.identity_map):
            group.session.expunge_all()
        if group.units == 0:
            try:
                yield group.session
            except BaseException:
                group.broken = True
                raise
            return
        try:
            nested = group.session.begin_nested()
        except BaseException:
            group.broken = True
            raise
        try:
            yield group.session
        except BaseException:
            try:
                nested.rollback()
            except BaseException:
                group.broken = True  # the connection is gone: nobody's writes survive
                raise
            raise
        try:
            nested.commit()
        except BaseException:
            group.broken = True
            raise

    def _finish(self, *, group: _Group) -> None:
        """Commit the group (roll it back when it broke) and wake its units."""
        self._group = None
        try:
            if group.broken:
                group.error = GroupCommitFailed("a unit of work broke the shared transaction")
                group.session.rollback()
            else:
                group.session.commit()
        except BaseException as error:  # every unit is told; none may ack a lost write
            group.error = error
        finally:
            group.session.close()
            group.done.set()
