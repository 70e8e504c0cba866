"""An admin's change during a pass: a pause or a disconnect committed while a sync works (its
create held by Zotero, or its save waiting on the admin's row lock on PostgreSQL) stays as the
admin left it, and the pass writes nothing more for the link (checked before each create)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import delete, update

from bot.db.database import Database
from bot.db.schema_zotero import ZoteroLinkRow
from bot.zotero.sync import SyncRound
from tests.lock_waits import waiting_on_locks
from tests.services.conftest import follow
from tests.services.support import deliver
from tests.zotero.sync_support import C1, World, month_of_posts, opened_world, queue

CHANGES = ["pause", "disconnect"]


@pytest.fixture
def world(any_database: Database) -> Iterator[World]:
    with opened_world(database=any_database) as opened:
        yield opened


def _thirty_posts(world: World) -> None:
    """30 posts: two create requests (25 posts, then 5)."""
    follow(world.database, C1.channel)
    queue(world, *(f"Paper {n:02d}" for n in range(30)))
    for n in range(30):
        day = datetime(2026, 1, 1, 8, tzinfo=UTC) + timedelta(days=n)
        deliver(world.database, world.chat, C1, now=day)


def _admin(world: World, *, change: str) -> None:
    """The admin's command, committed."""
    if change == "pause":
        world.change_link(paused=True)
    else:
        with world.database() as store:
            assert store.remove_zotero_link(channel=C1)


def _after(world: World, *, change: str) -> None:
    """The link as the admin left it."""
    with world.database(write=False) as store:
        found = store.zotero_link(channel=C1)
    if change == "pause":
        assert found is not None and found.paused
    else:
        assert found is None


def _in_thread(world: World) -> tuple[threading.Thread, list[SyncRound]]:
    rounds: list[SyncRound] = []
    thread = threading.Thread(target=lambda: rounds.append(world.sync()))
    thread.start()
    return thread, rounds


@pytest.mark.parametrize("change", CHANGES)
def test_a_change_during_a_create_stops_the_pass_and_stays(world: World, change: str) -> None:
    _thirty_posts(world)
    world.connect()
    held = world.fake.hold(method="POST", skip=1)  # the first create (the collection's before)
    thread, rounds = _in_thread(world)
    assert held.arrived.wait(30)
    _admin(world, change=change)
    held.release.set()
    thread.join(60)
    assert len(rounds) == 1 and rounds[0].synced == 0
    # The collection, the held create; not the next 5 posts'.
    assert [w.rsplit("/", 1)[1] for w in world.writes()] == ["collections", "items"]
    _after(world, change=change)


@pytest.mark.postgres
@pytest.mark.parametrize("change", CHANGES)
def test_a_change_committed_while_a_save_waits_stays(postgres_url: str, change: str) -> None:
    database = Database(url=postgres_url)
    try:
        with opened_world(database=database) as world:
            month_of_posts(world)
            world.connect()
            watcher, admin = database.engine.connect(), database.engine.connect()
            with watcher, admin, admin.begin():  # the admin's row locked until it commits
                if change == "pause":
                    admin.execute(update(ZoteroLinkRow).values(paused=True))
                else:
                    admin.execute(delete(ZoteroLinkRow))
                thread, rounds = _in_thread(world)
                assert waiting_on_locks(watcher=watcher, count=1, threads=[thread])
            thread.join(60)
            _after(world, change=change)
            assert len(rounds) == 1 and rounds[0].synced == 0
            assert world.writes() == []  # stopped before its first write (the collection)
    finally:
        database.dispose()
