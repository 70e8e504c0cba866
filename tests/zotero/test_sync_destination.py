"""The destination: a month of posts lands once in the channel's collection (an item and a note
a post, tags right), and a new vote, an edited comment and a deleted comment each rewrite that
post's tags or note once and nothing else; an item deleted in Zotero is never made again."""

from __future__ import annotations

from tests.services.support import deliver, vote
from tests.zotero.conftest import USER
from tests.zotero.sync_support import (
    NOW,
    World,
    edit,
    month_of_posts,
    name_things,
    queue,
    tags_of,
    unsay,
)


def test_a_month_of_posts_lands_once_in_the_channels_collection(world: World) -> None:
    posts = month_of_posts(world)
    name_things(world)
    world.connect()
    first = world.sync()
    assert (first.synced, first.created, first.updated, first.failures) == (1, 20, 0, ())
    [collection] = world.library.live(kind="collections")
    assert collection["name"] == "Paper Club #general"
    assert world.link().destination == collection["key"]
    items, notes = world.items(), world.notes()
    assert len(items) == len(notes) == len(posts) == 20
    assert all(item["collections"] == [collection["key"]] for item in items)
    copies = world.copies(posts=posts)
    by_key = {item["key"]: item for item in items}
    first_post = by_key[copies[posts[0].id].item_key]  # 5 Jan: 👍 U1, 👎 U2, two comments
    assert first_post["title"] == "Paper 00 on sparse attention"
    assert tags_of(first_post) == ["Paper Club", "2026-01-05", "👍 1", "👎 1", "#general"]
    second = by_key[copies[posts[1].id].item_key]  # 6 Jan: 👍 U1 only, no comment
    assert tags_of(second) == ["Paper Club", "2026-01-06", "👍 1", "👎 0", "#general"]
    note = {n["key"]: n for n in notes}[copies[posts[0].id].note_key]
    assert note["parentItem"] == first_post["key"]
    assert "<strong>Ada</strong>: Ada on paper 0" in note["note"]
    assert "<strong>Grace</strong>: Grace on paper 0" in note["note"]
    assert "Posted in #general on 2026-01-05" in note["note"]
    assert sorted(n["parentItem"] for n in notes) == sorted(by_key)
    assert all(c.stored and not c.gone for c in copies.values())

    writes = world.writes()
    again = world.sync(now=NOW.replace(hour=13))
    assert (again.synced, again.created, again.updated) == (1, 0, 0)
    assert world.writes() == writes  # nothing written twice, nothing rewritten
    assert len(world.items()) == 20


def test_a_vote_an_edit_and_a_delete_each_rewrite_only_what_they_change(world: World) -> None:
    posts = month_of_posts(world)
    name_things(world)
    world.connect()
    world.sync()
    copies = world.copies(posts=posts)
    prefix = f"PATCH /users/{USER}/items/"

    def rewritten_by(change: str) -> list[str]:
        """The writes of a sync after `change`."""
        before = len(world.writes())
        result = world.sync()
        assert result.failures == () and result.created == 0
        return world.writes()[before:]

    # Someone tags the second post's item in Zotero; then a new 👎 on it: its tags and its
    # note's counts are rewritten, nothing else, and the person's tag stays.
    second_key = copies[posts[1].id].item_key
    theirs = [{"tag": "to read"}, {"tag": "👍 7"}]  # a vote count is always ours: replaced
    mine = world.library.get(kind="items", key=second_key)
    assert mine is not None
    world.library.replace(
        kind="items", key=second_key, data={"tags": theirs + mine["tags"]}, patch=True
    )
    vote(world.database, posts[1], user="U2", value=-1, event="late-down", now=NOW)
    done = rewritten_by("vote")
    assert done == [prefix + second_key, prefix + copies[posts[1].id].note_key]
    second = world.library.get(kind="items", key=second_key)
    assert second is not None
    assert tags_of(second) == ["to read", "Paper Club", "2026-01-06", "👍 1", "👎 1", "#general"]
    note = world.library.get(kind="items", key=copies[posts[1].id].note_key)
    assert note is not None and "👍 1 · 👎 1" in note["note"]

    # An edited comment on the first post: its note alone.
    edit(world, posts[0], n=1, text="Ada, on second thought", user="U1")
    assert rewritten_by("edit") == [prefix + copies[posts[0].id].note_key]
    note = world.library.get(kind="items", key=copies[posts[0].id].note_key)
    assert note is not None
    assert "Ada, on second thought <em>(edited)</em>" in note["note"]
    assert "Ada on paper 0" not in note["note"]

    # A deleted comment on the third post: its note alone, the comment gone from it.
    unsay(world, posts[2], n=2, user="U2")
    assert rewritten_by("delete") == [prefix + copies[posts[2].id].note_key]
    note = world.library.get(kind="items", key=copies[posts[2].id].note_key)
    assert note is not None
    assert "Grace on paper 2" not in note["note"] and "Ada on paper 2" in note["note"]

    assert rewritten_by("nothing") == []
    assert len(world.items()) == len(world.notes()) == 20


def test_an_item_deleted_in_zotero_is_not_made_again(world: World) -> None:
    posts = month_of_posts(world)
    world.connect()
    world.sync()
    copies = world.copies(posts=posts)
    doomed = copies[posts[3].id]
    world.library.delete(kind="items", key=doomed.item_key)  # someone deleted it in Zotero
    assert len(world.items()) == len(world.notes()) == 19

    vote(world.database, posts[3], user="U2", value=-1, event="after-delete", now=NOW)
    found = world.sync()
    assert (found.synced, found.created, found.failures) == (1, 0, ())
    assert world.copies(posts=posts)[posts[3].id].gone

    vote(world.database, posts[3], user="U3", value=1, event="after-gone", now=NOW)
    before = world.writes()
    world.sync()
    assert world.writes() == before  # neither recreated nor rewritten
    assert doomed.item_key not in {item["key"] for item in world.items()}
    assert len(world.items()) == len(world.notes()) == 19


def test_a_post_after_the_first_sync_is_added_alone(world: World) -> None:
    posts = month_of_posts(world)
    world.connect()
    world.sync()
    posts_before = len(world.items())
    queue(world, "A paper for February")
    post, _ = deliver(world.database, world.chat, posts[0].channel, now=NOW)
    before = len(world.writes())
    result = world.sync(now=NOW.replace(hour=14))
    assert result.created == 1 and result.updated == 0
    assert world.writes()[before:] == [f"POST /users/{USER}/items"]
    assert len(world.items()) == posts_before + 1
    assert world.copies(posts=[post])[post.id].stored


def test_a_collection_deleted_in_zotero_is_made_anew_for_new_posts(world: World) -> None:
    posts = month_of_posts(world)
    world.connect()
    world.sync()
    old = world.link().destination
    assert old is not None
    world.library.delete(kind="collections", key=old)  # someone deleted the collection
    queue(world, "A paper for February")
    post, _ = deliver(world.database, world.chat, posts[0].channel, now=NOW)
    remade = world.sync(now=NOW.replace(hour=14))
    assert (remade.created, remade.failures) == (1, ())  # refused, a collection made, sent again
    [collection] = world.library.live(kind="collections")
    assert collection["key"] == world.link().destination != old
    assert world.copies(posts=[post])[post.id].stored
    [item] = [i for i in world.items() if i["title"] == "A paper for February"]
    assert item["collections"] == [collection["key"]]
    assert len(world.items()) == 21
