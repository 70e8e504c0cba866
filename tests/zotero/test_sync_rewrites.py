"""Rewrites against what people do in Zotero meanwhile: a note deleted alone leaves its item's
tags kept up to date (the note is not made again), and a tag someone adds between the read of
the item and the PATCH of its tags (412) is kept: the item is read and merged again."""

from __future__ import annotations

import threading

from tests.services.support import vote
from tests.zotero.sync_support import NOW, World, month_of_posts, tags_of


def test_a_note_deleted_alone_leaves_the_items_tags_kept_up_to_date(world: World) -> None:
    posts = month_of_posts(world)
    world.connect()
    world.sync()
    copy = world.copies(posts=posts)[posts[1].id]
    world.library.delete(kind="items", key=copy.note_key)  # someone deleted just the note
    for n, count in ((3, 2), (4, 3)):
        vote(world.database, posts[1], user=f"U{n}", value=1, event=f"after-note-{n}", now=NOW)
        done = world.sync()
        assert (done.synced, done.failures) == (1, ())
        item = world.library.get(kind="items", key=copy.item_key)
        assert item is not None and f"👍 {count}" in tags_of(item)
        assert not world.copies(posts=posts)[posts[1].id].gone
    assert world.library.get(kind="items", key=copy.note_key) is None  # not made again
    assert len(world.items()) == 20 and len(world.notes()) == 19


def test_a_tag_added_between_the_read_and_the_patch_is_kept(world: World) -> None:
    posts = month_of_posts(world)
    world.connect()
    world.sync()
    key = world.copies(posts=posts)[posts[1].id].item_key
    vote(world.database, posts[1], user="U3", value=1, event="late-up", now=NOW)
    held = world.fake.hold(method="GET")  # the read of the item before its tags are merged
    thread = threading.Thread(target=world.sync)
    thread.start()
    assert held.arrived.wait(30)
    item = world.library.get(kind="items", key=key)
    assert item is not None
    world.library.replace(
        kind="items", key=key, data={"tags": [{"tag": "theirs"}, *item["tags"]]}, patch=True
    )
    held.release.set()
    thread.join(60)
    item = world.library.get(kind="items", key=key)
    assert item is not None and "theirs" in tags_of(item) and "👍 2" in tags_of(item)
    assert [r.status for r in world.fake.requests if r.method == "PATCH"][:2] == [412, 204]
