"""Group commit on a real SQLite file (and PostgreSQL): units of work that arrive together share
one commit, each returns only once its writes are committed, and one that fails undoes only its
own writes."""

from __future__ import annotations

import threading
from datetime import UTC, datetime

import pytest
from sqlalchemy import create_engine, event, text

from bot.db import group_commit
from bot.db.store import Database

NOW = datetime(2026, 1, 5, 8, 0, tzinfo=UTC)


def _events(url: str) -> set[str]:
    """Event ids as a fresh connection (another process, say) reads them."""
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return {str(r[0]) for r in conn.execute(text("SELECT event_id FROM processed_events"))}
    finally:
        engine.dispose()


def _wait_queued(database: Database, count: int) -> None:
    """Wait until `count` units are queued for the write turn: the signal that they will
    share the open group (the writer's own count, polled; it changes only as threads queue)."""
    ready = threading.Event()
    for _ in range(2000):
        if database.writes.queued == count:
            return
        ready.wait(0.005)
    raise AssertionError(f"{database.writes.queued} units queued, not {count}")


def _commits(database: Database) -> list[int]:
    """A list that grows by one with every COMMIT the writer engine sends."""
    seen: list[int] = []

    @event.listens_for(database.engine, "commit")
    def _count(_conn: object) -> None:
        seen.append(1)

    return seen


def test_a_unit_alone_commits_at_once_and_is_durable(any_url: str) -> None:
    database = Database(url=any_url)
    try:
        with database() as store:
            assert store.mark_event(event_id="ev-1", now=NOW)
        assert _events(any_url) == {"ev-1"}  # committed before the block returned
    finally:
        database.dispose()


def test_units_that_arrive_together_share_one_commit(sqlite_url: str) -> None:
    database = Database(url=sqlite_url)
    commits = _commits(database)
    inside, release = threading.Event(), threading.Event()
    errors: list[BaseException] = []

    def first() -> None:
        """Holds its turn until the others are queued behind it."""
        with database() as store:
            store.mark_event(event_id="ev-first", now=NOW)
            inside.set()
            release.wait(10)

    def other(n: int) -> None:
        """Queues behind the first."""
        try:
            with database() as store:
                store.mark_event(event_id=f"ev-{n}", now=NOW)
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=first)]
    threads[0].start()
    assert inside.wait(10)
    threads += [threading.Thread(target=other, args=(n,)) for n in range(5)]
    for thread in threads[1:]:
        thread.start()
    _wait_queued(database, 5)
    release.set()
    for thread in threads:
        thread.join(10)
    try:
        assert errors == []
        assert _events(sqlite_url) == {"ev-first", *(f"ev-{n}" for n in range(5))}
        assert len(commits) == 1  # six units, one commit
    finally:
        database.dispose()


def test_a_failing_unit_undoes_only_its_own_writes(sqlite_url: str) -> None:
    database = Database(url=sqlite_url)
    inside, release = threading.Event(), threading.Event()

    def first() -> None:
        """Opens the group and keeps it open until the failing unit has queued."""
        with database() as store:
            store.mark_event(event_id="ev-kept", now=NOW)
            inside.set()
            release.wait(10)

    def failing() -> None:
        """Writes, then fails."""
        with pytest.raises(ValueError, match="no"), database() as store:
            store.mark_event(event_id="ev-undone", now=NOW)
            raise ValueError("no")

    opener = threading.Thread(target=first)
    opener.start()
    assert inside.wait(10)
    loser = threading.Thread(target=failing)
    loser.start()
    _wait_queued(database, 1)
    release.set()
    opener.join(10)
    loser.join(10)
    with database() as store:  # a third unit, after them, still works
        store.mark_event(event_id="ev-after", now=NOW)
    try:
        assert _events(sqlite_url) == {"ev-kept", "ev-after"}
    finally:
        database.dispose()


def test_a_nested_write_is_refused_rather_than_hanging(sqlite_url: str) -> None:
    database = Database(url=sqlite_url)
    try:
        with database() as store, pytest.raises(RuntimeError, match="inside another"):
            store.mark_event(event_id="ev-outer", now=NOW)
            with database():
                pass
        assert _events(sqlite_url) == {"ev-outer"}
    finally:
        database.dispose()


def test_a_failed_commit_is_reported_to_the_unit(sqlite_url: str) -> None:
    database = Database(url=sqlite_url)

    @event.listens_for(database.engine, "commit")
    def _refuse(_conn: object) -> None:
        raise OSError("disk I/O error")

    try:
        with pytest.raises(group_commit.GroupCommitFailed), database() as store:
            store.mark_event(event_id="ev-lost", now=NOW)
        event.remove(database.engine, "commit", _refuse)
        assert _events(sqlite_url) == set()
    finally:
        database.dispose()
