"""The channel's collection: planned under a key committed on the link first, made under it,
never looked up by name: two channels named alike in one library get one each, and a pass that
died between the plan and the make is mended by the next."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.zotero import LibraryRef, ZoteroClient
from bot.zotero.sync_collection import made
from bot.zotero.sync_link import LinkChanged
from tests.services.conftest import follow, key
from tests.services.support import deliver
from tests.zotero.conftest import KEY, USER
from tests.zotero.sync_support import (
    C1,
    NOW,
    World,
    month_of_posts,
    name_things,
    queue,
)

ELSEWHERE = key("C9")  # named "general" too, as a Discord channel of the same club may be


def test_two_channels_named_alike_in_one_library_get_a_collection_each(world: World) -> None:
    posts = month_of_posts(world)
    follow(world.database, ELSEWHERE.channel)
    queue(world, "Elsewhere 1", "Elsewhere 2", channel=ELSEWHERE)
    days = (NOW - timedelta(days=2), NOW - timedelta(days=1))
    other_posts = [deliver(world.database, world.chat, ELSEWHERE, now=day)[0] for day in days]
    name_things(world)
    name_things(world, channel=ELSEWHERE)
    world.connect()
    world.connect(channel=ELSEWHERE)
    done = world.sync()
    assert (done.synced, done.created, done.failures) == (2, 22, ())
    collections = world.library.live(kind="collections")
    assert [c["name"] for c in collections] == ["Paper Club #general"] * 2
    for channel, posts in ((C1, posts), (ELSEWHERE, other_posts)):
        home = world.link(channel=channel).destination
        keys = {c.item_key for c in world.copies(posts=posts, channel=channel).values()}
        assert {i["key"] for i in world.items() if i["collections"] == [home]} == keys


def test_a_collection_planned_but_never_made_is_mended_by_the_next_pass(world: World) -> None:
    posts = month_of_posts(world)
    world.connect()
    with world.database() as store:  # what a pass commits before it makes it, then dies
        planned = store.plan_zotero_destination(link=world.link(), replacing=None, key="DEAD2345")
    assert planned == "DEAD2345"
    done = world.sync()
    assert (done.synced, done.created, done.failures) == (1, 20, ())
    [collection] = world.library.live(kind="collections")
    # Made under the planned key: a pass that died first (or one still making it) may have
    # sent it, and its write token makes a second make of it harmless.
    assert collection["key"] == world.link().destination == "DEAD2345"
    assert all(c.stored for c in world.copies(posts=posts).values())
    assert {i["collections"][0] for i in world.items()} == {collection["key"]}


def _client(world: World) -> ZoteroClient:
    return ZoteroClient(session=world.session_for(KEY), library=LibraryRef(kind="users", id=USER))


def test_a_key_found_missing_but_replaced_meanwhile_is_not_made_again(world: World) -> None:
    world.connect()
    with world.database() as store:  # this pass's key, then another sync's in its place
        store.plan_zotero_destination(link=world.link(), replacing=None, key="KONE2345")
        store.plan_zotero_destination(link=world.link(), replacing="KONE2345", key="KTWO2345")
    kept = made(
        uow=world.database, client=_client(world), link=world.link(), label="#g", gone="KONE2345"
    )
    assert kept == "KTWO2345" and world.link().destination == "KTWO2345"
    assert world.writes() == []  # the other sync makes its own: nothing sent from here


def test_a_link_paused_meanwhile_gets_no_collection_made(world: World) -> None:
    world.connect()
    with world.database() as store:
        store.plan_zotero_destination(link=world.link(), replacing=None, key="KONE2345")
    world.change_link(paused=True)
    with pytest.raises(LinkChanged):
        made(
            uow=world.database,
            client=_client(world),
            link=world.link(),
            label="#g",
            gone="KONE2345",
        )
    assert world.writes() == []
