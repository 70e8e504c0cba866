"""Never twice: a create whose answer was lost (replayed at once, or by the next pass), a crash
between the committed plan and the write, and two syncs at once each leave one item and one
note a post, under the keys planned first."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import timedelta

import pytest

from bot.db.database import Database
from bot.domain import Post
from bot.ports.zotero import ZoteroCopy
from bot.zotero import new_object_key, new_write_token
from bot.zotero.sync import SyncRound
from tests.fakezotero import Request
from tests.services.support import vote
from tests.zotero.conftest import USER
from tests.zotero.sync_support import C1, NOW, World, month_of_posts, opened_world, tags_of

COLLECTION = "CLLC2345"


def _ready(world: World) -> list[Post]:
    """A month posted and a link whose collection exists: a pass's first request is the
    create of the month's items. The month's posts."""
    posts = month_of_posts(world)
    world.fake.seed(
        kind="users", id=USER, objects="collections", data=[{"key": COLLECTION, "name": "PC"}]
    )
    world.connect()
    world.change_link(destination=COLLECTION)
    return posts


def _creates(world: World) -> list[Request]:
    return [r for r in world.fake.requests if r.method == "POST" and r.path.endswith("/items")]


def _once_each(world: World) -> None:
    """One item and one note a post, each note under its own item, every copy stored."""
    items, notes = world.items(), world.notes()
    assert len(items) == len(notes) == 20
    assert sorted(n["parentItem"] for n in notes) == sorted(i["key"] for i in items)
    assert len({i["title"] for i in items}) == 20


def test_a_create_whose_answer_was_lost_is_replayed_and_found(world: World) -> None:
    _ready(world)
    world.fake.drop_next()  # stored, then the connection closes unanswered
    result = world.sync()
    assert (result.synced, result.created, result.failures) == (1, 20, ())
    lost, replay = _creates(world)
    assert (lost.status, replay.status) == (0, 412)  # the replay's token was used: looked up
    assert lost.header("Zotero-Write-Token") == replay.header("Zotero-Write-Token")
    _once_each(world)
    # Found by a look-up, they are written again by the next pass (with what came since).
    [first, *_] = sorted(_copies(world))
    with world.database(write=False) as store:
        post = store.post_by_id(post_id=first)
    assert post is not None
    vote(world.database, post, user="U3", value=1, event="after-replay", now=NOW)
    assert world.sync(now=NOW + timedelta(minutes=5)).updated == 20
    assert "👍 2" in tags_of(
        world.library.get(kind="items", key=_copies(world)[first].item_key) or {}
    )


def test_a_pass_that_gave_up_after_a_lost_answer_is_finished_by_the_next(world: World) -> None:
    _ready(world)
    world.attempts = 1  # the answer lost and not replayed: as if the process died then
    world.fake.drop_next()
    failed = world.sync()
    assert failed.synced == 0 and failed.failures == ()  # a transient failure: not reported
    assert world.link().failures == 1
    assert not any(c.stored for c in _copies(world).values())
    _once_each(world)  # stored all the same

    world.attempts = 4
    later = world.sync(now=NOW + timedelta(minutes=10))
    assert (later.synced, later.created) == (1, 20)
    assert [r.status for r in _creates(world)] == [0, 412]
    assert all(c.stored for c in _copies(world).values())
    _once_each(world)
    assert world.link().failures == 0


def _copies(world: World) -> dict[int, ZoteroCopy]:
    with world.database(write=False) as store:
        ids = [p.post_id for p in store.posted_papers(channel=C1, after_post=0, limit=100)]
        return store.zotero_copies(channel=C1, library=f"users/{USER}", post_ids=ids)


def test_a_crash_between_the_plan_and_the_write_doubles_nothing(world: World) -> None:
    _ready(world)
    with world.database() as store:  # what a pass commits before it writes, then dies
        ids = [p.post_id for p in store.posted_papers(channel=C1, after_post=0, limit=100)]
        token = new_write_token()
        planned = [ZoteroCopy(p, new_object_key(), new_object_key(), token) for p in ids]
        store.plan_zotero_copies(channel=C1, library=f"users/{USER}", copies=planned)
    result = world.sync()
    assert result.created == 20
    _once_each(world)
    assert {i["key"] for i in world.items()} == {c.item_key for c in planned}
    assert {n["key"] for n in world.notes()} == {c.note_key for c in planned}
    assert len(_creates(world)) == 1


def test_a_write_refused_before_it_was_stored_is_made_by_the_next_pass(world: World) -> None:
    _ready(world)
    world.attempts = 1
    world.fake.fail_next(status=503)  # answered before anything was stored
    assert world.sync().synced == 0
    planned = _copies(world)
    assert len(planned) == 20 and world.items() == []
    world.attempts = 4
    assert world.sync(now=NOW + timedelta(minutes=10)).created == 20
    _once_each(world)
    assert {i["key"] for i in world.items()} == {c.item_key for c in planned.values()}


@pytest.fixture
def any_world(any_database: Database) -> Iterator[World]:
    with opened_world(database=any_database) as opened:
        yield opened


def test_two_syncs_at_once_write_each_post_once(any_world: World) -> None:
    world = any_world
    month_of_posts(world)
    world.connect()
    start = threading.Barrier(2)
    rounds: list[SyncRound] = []

    def replica() -> None:
        start.wait(timeout=30)
        rounds.append(world.sync())

    threads = [threading.Thread(target=replica) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert len(rounds) == 2 and all(r.failures == () for r in rounds)
    assert sum(r.created for r in rounds) >= 20
    assert len(world.library.live(kind="collections")) == 1
    _once_each(world)
    assert all(c.stored for c in _copies(world).values())
    assert world.sync(now=NOW + timedelta(minutes=10)).created == 0
    _once_each(world)


def test_copies_found_after_a_lost_answer_are_rewritten_with_what_changed_since(
    world: World,
) -> None:
    posts = _ready(world)
    world.attempts = 1  # the answer lost and not replayed: as if the process died then
    world.fake.drop_next()
    assert world.sync().synced == 0
    # Meanwhile a vote, and someone else's write moves the library's version on.
    vote(world.database, posts[0], user="U3", value=1, event="before-replay", now=NOW)
    world.fake.seed(kind="users", id=USER, objects="collections", data=[{"name": "Theirs"}])
    world.attempts = 4
    replayed = world.sync(now=NOW + timedelta(minutes=10))
    assert (replayed.synced, replayed.created) == (1, 20)
    copy = _copies(world)[posts[0].id]
    item = world.library.get(kind="items", key=copy.item_key)
    note = world.library.get(kind="items", key=copy.note_key)
    assert item is not None and note is not None
    assert "👍 1" in tags_of(item)  # Zotero holds what the lost request sent
    assert (copy.item_version, copy.note_version) == (item["version"], note["version"])
    assert copy.digest == ""  # so the next pass writes what changed since
    assert world.sync(now=NOW + timedelta(minutes=20)).updated == 20
    item = world.library.get(kind="items", key=copy.item_key)
    assert item is not None and "👍 2" in tags_of(item)
    _once_each(world)
