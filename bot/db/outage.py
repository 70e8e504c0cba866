"""The one place where the database's own failures become the core's ArchiveUnavailable.

What counts: the archive could not be read or written at all (SQLAlchemy's OperationalError,
which covers a disk full, a read-only file, a lock held past its wait and a server that does
not answer; a pool with no connection left; the sqlite3 driver's own errors, raised where the
hot path talks to it directly; a group commit that kept none of its writes). What does not: a
broken constraint or a wrong statement (IntegrityError, ProgrammingError): those are bugs or
races the caller handles, and "try again in a minute" would not help.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy.exc import DBAPIError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from bot.db.group_commit import GroupCommitFailed
from bot.ports import ArchiveUnavailable

log = logging.getLogger(__name__)


class CommitLost(ArchiveUnavailable, GroupCommitFailed):
    """A group commit kept none of the unit's writes: ArchiveUnavailable to the core, and
    still the GroupCommitFailed that bot/db's own callers know."""


UNAVAILABLE = (OperationalError, PoolTimeout, sqlite3.OperationalError, GroupCommitFailed)


def cause(*, error: BaseException) -> str:
    """The database's own words for a failure, without the statement or its parameters
    (SQLAlchemy's message carries both: comment text, ids) and without a URL: the driver's
    message names a host and port at most, never a password."""
    root: BaseException = error
    while isinstance(root, GroupCommitFailed) and root.__cause__ is not None:
        root = root.__cause__
    if isinstance(root, DBAPIError) and root.orig is not None:
        root = root.orig
    words = " ".join(str(root).split())[:300]
    return f"{type(root).__name__}: {words}" if words else type(root).__name__


@contextmanager
def translated(*, what: str, logged: bool = True) -> Iterator[None]:
    """Run a block; a failure of the archive itself leaves it as ArchiveUnavailable, whose text
    carries the cause for the log (never for an answer), logged at WARNING here unless the
    caller logs it itself (`logged` False); `what`: the kind of unit, e.g. "a write"."""
    try:
        yield
    except UNAVAILABLE as error:
        reason = f"the archive could not take {what}: {cause(error=error)}"
        if logged:
            log.warning("%s", reason)
        kind = CommitLost if isinstance(error, GroupCommitFailed) else ArchiveUnavailable
        raise kind(reason) from error
