"""Waiting for PostgreSQL writers to block on a lock, the signal the race tests wait on
instead of sleeping: pg_stat_activity shows each waiting backend."""

from __future__ import annotations

import threading
from collections.abc import Sequence

from sqlalchemy import Connection, text

WAITING = (
    "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
    "AND datname = current_database()"
)
POLLS = 5_000  # each a round trip to the server: seconds at most, on the slowest machine


def waiting_on_locks(
    *, watcher: Connection, count: int, threads: Sequence[threading.Thread]
) -> bool:
    """Whether `count` backends of the test's database came to wait on a lock, polled until
    then or until one of the started `threads` ended (it did not block: it failed, or the
    code under test takes no lock)."""
    for _ in range(POLLS):
        if watcher.execute(text(WAITING)).scalar() == count:
            return True
        watcher.rollback()
        if not all(thread.is_alive() for thread in threads):
            return False
    return False
