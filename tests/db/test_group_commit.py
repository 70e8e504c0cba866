"""Group commit on a real SQLite file (and PostgreSQL): units of work that arrive together share
one commit, each returns only once its writes are committed, and one that fails undoes only its
own writes."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import UTC, datetime, time

import pytest
from sqlalchemy import create_engine, event, text

from bot.db import group_commit
from bot.db.database import Database
from bot.db.store import SqlStore
from bot.domain import ChannelKey, Schedule

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


def test_a_failing_unit_undoes_only_its_own_writes(any_url: str) -> None:
    database = Database(url=any_url)
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
        assert _events(any_url) == {"ev-kept", "ev-after"}
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


SCHEDULE = Schedule(post_time=time(9, 0), timezone="Europe/Berlin", weekdays=frozenset({1, 2}))


def _channels(url: str) -> set[str]:
    """Followed channels' ids as a fresh connection reads them."""
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return {str(r[0]) for r in conn.execute(text("SELECT external_id FROM channels"))}
    finally:
        engine.dispose()


def _in_one_group(
    database: Database, first: Callable[[SqlStore], object], then: Callable[[SqlStore], object]
) -> list[BaseException]:
    """Run unit `first` and, queued behind it so that both share its group, unit `then`
    (each a function of a store); the errors they raised."""
    inside, release = threading.Event(), threading.Event()
    errors: list[BaseException] = []

    def opener() -> None:
        """Opens the group and holds it until the second unit has queued."""
        try:
            with database() as store:
                first(store)
                inside.set()
                release.wait(10)
        except BaseException as error:
            errors.append(error)

    def follower() -> None:
        """Joins the open group."""
        try:
            with database() as store:
                then(store)
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=opener)]
    threads[0].start()
    assert inside.wait(10)
    threads.append(threading.Thread(target=follower))
    threads[1].start()
    _wait_queued(database, 1)
    release.set()
    for thread in threads:
        thread.join(10)
    return errors


def test_an_orm_unit_joins_a_core_group(any_url: str) -> None:
    # The group is opened by a Core-only unit (no Session yet); the ORM unit behind it opens
    # the Session inside the same transaction, and both land with one commit.
    database = Database(url=any_url)
    commits = _commits(database)
    key = ChannelKey(platform="slack", workspace="T1", channel="C-orm")
    try:
        errors = _in_one_group(
            database,
            lambda store: store.mark_event(event_id="ev-core", now=NOW),
            lambda store: store.save_channel(key=key, schedule=SCHEDULE, private=False),
        )
        assert errors == []
        assert _events(any_url) == {"ev-core"}
        assert _channels(any_url) == {"C-orm"}
        assert len(commits) == 1
    finally:
        database.dispose()


def test_a_failing_orm_unit_undoes_only_its_own_writes(any_url: str) -> None:
    database = Database(url=any_url)
    key = ChannelKey(platform="slack", workspace="T1", channel="C-undone")

    def failing(store: SqlStore) -> None:
        """Follows a channel through the ORM (flushed), then fails."""
        store.save_channel(key=key, schedule=SCHEDULE, private=False)
        raise ValueError("no")

    try:
        errors = _in_one_group(
            database, lambda store: store.mark_event(event_id="ev-kept", now=NOW), failing
        )
        assert [str(e) for e in errors] == ["no"]
        assert _events(any_url) == {"ev-kept"}
        assert _channels(any_url) == set()
        with database() as store:  # the writer still works, ORM included
            store.save_channel(key=key, schedule=SCHEDULE, private=False)
        assert _channels(any_url) == {"C-undone"}
    finally:
        database.dispose()
