"""The Zotero thread (bot/runtime/zotero_syncing.py): it syncs only while its process leads
(another replica's turn otherwise), tells a channel once that its key was revoked however many
passes fail, and keeps one session per key across passes; on a real SQLite archive, against
the fake Zotero."""

from __future__ import annotations

from datetime import timedelta

from bot.runtime.zotero_syncing import ZoteroWorker
from tests.services.support import vote
from tests.slack.conftest import FakeClock
from tests.zotero.conftest import KEY
from tests.zotero.sync_support import C1, NOW, World, month_of_posts

WAIT = 10.0


def _worker(world: World, *, leading: list[bool], clock: FakeClock) -> ZoteroWorker:
    return ZoteroWorker(
        uow=world.database,
        cipher=world.cipher,
        new_session=world.session_for,
        clock=clock,
        platforms=lambda: {"slack": world.chat},
        leading=lambda: leading[0],
        poll=0.01,
    )


def test_it_syncs_only_while_leading_and_tells_a_revoked_key_once(world: World) -> None:
    posts = month_of_posts(world)
    world.connect()
    leading, clock = [False], FakeClock(NOW)
    worker = _worker(world, leading=leading, clock=clock)
    worker.start()
    try:
        assert worker.thread.wait_rounds(count=3, timeout=WAIT)
        assert world.fake.requests == []  # another replica leads: nothing asked here
        leading[0] = True
        done = worker.thread.rounds
        assert worker.thread.wait_rounds(count=done + 2, timeout=WAIT)
        assert len(world.items()) == len(posts)
        world.fake.revoke(key=KEY)
        # Each day a pass has a write to make (a new vote) and meets the revoked key.
        for day in range(1, 4):
            clock.at = NOW + timedelta(days=day, hours=1)  # past the daily retry
            vote(world.database, posts[0], user=f"U{day}9", value=1, event=f"d{day}", now=NOW)
            done = worker.thread.rounds
            assert worker.thread.wait_rounds(count=done + 2, timeout=WAIT)
            assert world.link(channel=C1).failures == day
    finally:
        worker.close()
    told = world.chat.notices["C1"]
    assert len(told) == 1, told
    assert "Zotero sync with users/" in told[0] and "no longer accepts the API key" in told[0]
    assert KEY not in told[0]
    assert world.link(channel=C1).reported
    assert len(world.items()) == len(posts)  # nothing written twice meanwhile
