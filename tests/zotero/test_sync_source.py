"""The source: a collection's items enter the channel's queue or tray, deduplicated by DOI,
arXiv id and title against the papers the workspace holds and each other; the next pass asks
only for what changed since the version read, and an unchanged collection imports nothing."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from bot.domain import PaperDraft
from bot.ingest.drafts import MAX_TITLE
from bot.services import listing
from bot.services.adding import queue_draft
from tests.services.conftest import follow
from tests.services.support import vote
from tests.zotero.conftest import USER
from tests.zotero.sync_support import C1, NEW_YEAR, NOW, World, month_of_posts

READING = "READ2345"  # the source collection's key
ELSEWHERE = "ELSE2345"


def _held(world: World) -> None:
    """Papers the workspace holds already: one by DOI, one by arXiv id, one by title alone."""
    follow(world.database, C1.channel)
    held = (
        PaperDraft(title="Held by its DOI", doi="10.1000/held", origin="test"),
        PaperDraft(title="Held by its arXiv id", arxiv_id="2401.00001", origin="test"),
        PaperDraft(title="Held by title alone", origin="test"),
    )
    with world.database() as store:
        for draft in held:
            assert queue_draft(store=store, draft=draft, channel=C1, user="U8", now=NEW_YEAR)


def _item(key: str, title: str, *, collection: str = READING, **fields: Any) -> dict[str, Any]:
    return {
        "key": key,
        "itemType": "journalArticle",
        "title": title,
        "collections": [collection],
        **fields,
    }


def _seed(world: World) -> None:
    """The collection: three papers held already, one new paper twice, a note, and a new
    paper in another collection."""
    world.fake.seed(
        kind="users",
        id=USER,
        objects="collections",
        data=[{"key": READING, "name": "Reading"}, {"key": ELSEWHERE, "name": "Else"}],
    )
    world.fake.seed(
        kind="users",
        id=USER,
        objects="items",
        data=[
            _item("AAAA2345", "Another title, same DOI", DOI="10.1000/HELD"),
            _item(
                "BBBB2345",
                "Another title, same preprint",
                itemType="preprint",
                extra="arXiv: 2401.00001",
            ),
            _item("CCCC2345", "Held by title alone"),
            _item(
                "DDDD2345",
                "A new paper from Zotero",
                DOI="10.1000/new",
                creators=[{"creatorType": "author", "firstName": "Ada", "lastName": "Lovelace"}],
            ),
            _item("EEEE2345", "The same new paper, filed twice", DOI="10.1000/new"),
            _item("FFFF2345", "Not in the source", collection=ELSEWHERE),
        ],
    )
    world.fake.seed(
        kind="users",
        id=USER,
        objects="items",
        data=[
            {"key": "NNNN2345", "itemType": "note", "parentItem": "DDDD2345", "note": "<p>mine</p>"}
        ],
    )


def _queued(world: World) -> list[str]:
    [view] = listing.queues(uow=world.database, workspace=C1.workspace_key, limit=100)
    return [paper.title for paper in view.papers]


def _source_reads(world: World) -> list[tuple[str, str | None]]:
    """Each read of the source collection: its query and its If-Modified-Since-Version."""
    where = f"/users/{USER}/collections/{READING}/items/top"
    return [
        (r.path.split("?", 1)[1], r.header("If-Modified-Since-Version"))
        for r in world.fake.requests
        if r.path.startswith(where)
    ]


def test_a_collection_feeds_the_queue_once_deduplicated(world: World) -> None:
    _held(world)
    _seed(world)
    world.connect(source=READING, into="queue")
    version = world.library.version  # what the source is read at (the sync's own writes follow)
    first = world.sync()
    assert (first.synced, first.imported, first.failures) == (1, 1, ())
    assert _queued(world) == [
        "Held by its DOI",
        "Held by its arXiv id",
        "Held by title alone",
        "A new paper from Zotero",
    ]
    with world.database(write=False) as store:
        found = store.paper_by_title(workspace=C1.workspace_key, title="A new paper from Zotero")
    assert found is not None and found.source == "zotero:DDDD2345"
    assert found.authors == ("Ada Lovelace",) and found.added_by == "UADMIN"
    assert world.link().source_version == version

    second = world.sync(now=NOW + timedelta(minutes=15))
    assert (second.synced, second.imported) == (1, 0)
    # Asked with since: nothing of the collection changed (the sync's own collection did).
    assert _source_reads(world)[-1][1] == str(version)
    assert f"since={version}" in _source_reads(world)[-1][0]
    version = world.link().source_version
    unchanged = world.sync(now=NOW + timedelta(minutes=20))
    assert unchanged.imported == 0 and world.fake.requests[-1].status == 304
    assert len(_queued(world)) == 4

    newest = world.fake.seed(
        kind="users", id=USER, objects="items", data=[_item("GGGG2345", "Filed in February")]
    )
    third = world.sync(now=NOW + timedelta(minutes=30))
    assert third.imported == 1 and _queued(world)[-1] == "Filed in February"
    assert f"since={version}" in _source_reads(world)[-1][0]
    assert world.link().source_version == newest


def test_a_collection_feeds_the_tray_as_suggestions(world: World) -> None:
    _held(world)
    _seed(world)
    world.connect(source=READING, into="tray")
    first = world.sync()
    assert first.imported == 1
    with world.database(write=False) as store:
        waiting = store.suggestions(channel=C1, states=("waiting",), limit=100)
    assert [(s.candidate.title, s.candidate.source, s.watch_id) for s in waiting] == [
        ("A new paper from Zotero", "zotero:DDDD2345", None)
    ]
    assert len(_queued(world)) == 3  # the queue is not touched

    again = world.sync(now=NOW + timedelta(minutes=15))
    assert again.imported == 0
    with world.database(write=False) as store:
        assert len(store.suggestions(channel=C1, states=("waiting",), limit=100)) == 1


def test_a_link_without_a_source_reads_nothing(world: World) -> None:
    _seed(world)
    world.connect()
    assert world.sync().imported == 0
    assert _source_reads(world) == []
    assert not any("/items/top" in r.path for r in world.fake.requests)


def test_a_source_collection_deleted_in_zotero_is_reported_and_the_destination_written(
    world: World,
) -> None:
    _seed(world)
    posts = month_of_posts(world)
    world.connect(source="GONE2345", into="queue")
    world.change_link(failures=3)  # earlier passes failed: this one writes the destination
    round_ = world.sync()
    assert (round_.synced, round_.created, len(round_.failures)) == (1, 20, 1)
    assert "source collection" in round_.failures[0].reason
    link = world.link()
    # Reported, but no wait and no failure counted: the count paces the whole link's retries.
    assert (link.failures, link.reported, link.retry_at) == (0, True, None)
    assert "source collection" in link.last_error
    assert all(c.stored for c in world.copies(posts=posts).values())
    vote(world.database, posts[0], user="U3", value=1, event="after-source-gone", now=NOW)
    later = world.sync(now=NOW + timedelta(minutes=15))  # the source still gone: said once
    assert (later.synced, later.updated, later.failures) == (1, 1, ())
    assert world.link().reported and world.link().failures == 0


def test_a_hostile_item_is_a_plain_suggestion(world: World) -> None:
    world.fake.seed(
        kind="users", id=USER, objects="collections", data=[{"key": READING, "name": "Reading"}]
    )
    title = "<!channel> <@U1> @everyone <script>x</script> 🦘 " + "w" * 10_000
    world.fake.seed(
        kind="users",
        id=USER,
        objects="items",
        data=[_item("HHHH2345", title, abstractNote="<b>bold</b> " * 2_000)],
    )
    world.connect(source=READING, into="tray")
    assert world.sync().imported == 1
    with world.database(write=False) as store:
        [found] = store.suggestions(channel=C1, states=("waiting",), limit=10)
    assert found.candidate.title.startswith("<!channel> <@U1> @everyone <script>x</script>")
    assert len(found.candidate.title) <= MAX_TITLE


def test_a_large_collection_comes_in_whole_in_parts(world: World) -> None:
    from bot.zotero.records import new_object_key
    from bot.zotero.sync_source import PART

    world.fake.seed(
        kind="users", id=USER, objects="collections", data=[{"key": READING, "name": "Reading"}]
    )
    many = 2 * PART + 50  # three units of work; the fake pages them 100 at a time
    items = [
        _item(new_object_key(), f"Large collection paper {n}", DOI=f"10.1000/large.{n}")
        for n in range(many)
    ]
    read_at = world.fake.seed(kind="users", id=USER, objects="items", data=items)
    world.connect(source=READING, into="queue")
    first = world.sync()
    assert (first.imported, first.failures) == (many, ())
    assert world.link().source_version == read_at  # kept with the last part
    assert world.sync(now=NOW + timedelta(minutes=5)).imported == 0  # read since: nothing new
