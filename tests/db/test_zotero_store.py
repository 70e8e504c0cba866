"""The Zotero storage: a channel's link saved, replaced and removed (its copies kept), copies
planned once (a second plan, even another replica's at the same moment, keeps the first),
written, and gone with their channel or post; on SQLite and, where present, PostgreSQL."""

from __future__ import annotations

import threading
from dataclasses import replace
from datetime import timedelta

import pytest
from sqlalchemy import delete, func, select

from bot.db.database import Database
from bot.db.schema import ChannelRow, PostRow
from bot.db.schema_zotero import ZoteroCopyRow, ZoteroLinkRow
from bot.ports.zotero import ZoteroCopy
from tests.db.sources_data import HERE, HOSTILE, NEXT_DOOR, NOW, ON_DISCORD, posted
from tests.db.zotero_data import LIBRARY, link, plan, post_ids
from tests.lock_waits import waiting_on_locks


def _posts(database: Database, count: int = 3) -> list[int]:
    """`count` posted papers of HERE; their post ids."""
    for n in range(count):
        posted(database, channel=HERE, title=f"Paper {n}", days_ago=n)
    return post_ids(database, channel=HERE)


def _plan(database: Database, *copies: ZoteroCopy, library: str = LIBRARY) -> None:
    """plan_zotero_copies in a unit of its own."""
    with database() as store:
        store.plan_zotero_copies(channel=HERE, library=library, copies=copies)


def _copies(database: Database, ids: list[int], *, library: str = LIBRARY) -> dict[int, ZoteroCopy]:
    """The copies of these posts in `library`."""
    with database(write=False) as store:
        return dict(store.zotero_copies(channel=HERE, library=library, post_ids=ids))


def test_a_link_is_saved_replaced_and_removed(any_database: Database) -> None:
    first = link(source="ABCD2345", source_name="Reading group", into="queue")
    with any_database() as store:
        assert store.zotero_link(channel=HERE) is None
        store.save_zotero_link(link=first)
        store.save_zotero_link(link=link(ON_DISCORD, library_kind="users", library_id=2**40))
    with any_database(write=False) as store:
        assert store.zotero_link(channel=HERE) == first
        assert store.zotero_link(channel=NEXT_DOOR) is None
        # A channel linked before it follows gets a row as a watch's: paused, watch_only.
        row = store.session.scalar(select(ChannelRow).where(ChannelRow.external_id == "C1"))
        assert row is not None and row.paused and row.watch_only
    later = NOW + timedelta(hours=1)
    failing = replace(
        first,
        source_version=4_000_000_000,
        destination="DEST0001",
        paused=True,
        failures=3,
        retry_at=later + timedelta(days=1),
        failing_since=later,
        last_error="403 Forbidden",
        reported=True,
        synced_at=later,
    )
    with any_database() as store:
        store.save_zotero_link(link=failing)
    with any_database(write=False) as store:
        assert store.zotero_link(channel=HERE) == failing
        assert [found.channel for found in store.zotero_links()] == [HERE, ON_DISCORD]
        assert store.zotero_links()[1].library == f"users/{2**40}"
    with any_database() as store:
        assert store.remove_zotero_link(channel=HERE) is True
        assert store.remove_zotero_link(channel=HERE) is False
        assert store.remove_zotero_link(channel=NEXT_DOOR) is False
    with any_database(write=False) as store:
        assert store.zotero_link(channel=HERE) is None
        assert [found.channel for found in store.zotero_links()] == [ON_DISCORD]


def test_removing_a_link_keeps_its_copies_for_the_next_connect(any_database: Database) -> None:
    ids = _posts(any_database, 2)
    with any_database() as store:
        store.save_zotero_link(link=link())
    _plan(any_database, plan(ids[0]), plan(ids[1]))
    with any_database() as store:
        assert store.remove_zotero_link(channel=HERE)
        store.save_zotero_link(link=link())
    assert _copies(any_database, ids) == {ids[0]: plan(ids[0]), ids[1]: plan(ids[1])}


def test_a_second_plan_keeps_the_first(any_database: Database) -> None:
    ids = _posts(any_database)
    _plan(any_database, plan(ids[0], "A"))
    _plan(any_database, plan(ids[1], "B"), plan(ids[0], "B"))
    assert _copies(any_database, ids) == {ids[0]: plan(ids[0], "A"), ids[1]: plan(ids[1], "B")}
    # Another library of the channel starts afresh.
    _plan(any_database, plan(ids[0], "C"), library="users/9")
    assert _copies(any_database, ids, library="users/9") == {ids[0]: plan(ids[0], "C")}
    assert _copies(any_database, [ids[0]])[ids[0]] == plan(ids[0], "A")
    with any_database(write=False) as store:
        assert store.zotero_copies(channel=NEXT_DOOR, library=LIBRARY, post_ids=ids) == {}


def test_a_copy_keeps_what_was_written_and_its_plan(any_database: Database) -> None:
    ids = _posts(any_database, 2)
    _plan(any_database, plan(ids[0]))
    written = plan(ids[0], stored=True, item_version=2**35, note_version=7, digest="d" * 64)
    with any_database() as store:
        # Keys and token are the plan's: a write that names others changes none of them.
        # A copy never planned is kept whole; both in one call.
        store.save_zotero_copies(
            channel=HERE,
            library=LIBRARY,
            copies=[plan(ids[1], gone=True), replace(written, item_key="X")],
        )
    assert _copies(any_database, ids) == {ids[0]: written, ids[1]: plan(ids[1], gone=True)}
    gone = replace(written, gone=True, digest="e" * 64)
    with any_database() as store:
        store.save_zotero_copies(channel=HERE, library=LIBRARY, copies=[gone])
    assert _copies(any_database, [ids[0]]) == {ids[0]: gone}


@pytest.mark.postgres
def test_two_replicas_planning_a_post_at_once_keep_one_plan(postgres_url: str) -> None:
    seed = Database(url=postgres_url)
    ids = _posts(seed)
    seed.dispose()
    first, second = Database(url=postgres_url), Database(url=postgres_url)
    failed: list[BaseException] = []

    def later() -> None:
        try:
            _plan(second, plan(ids[1], "B"), plan(ids[2], "B"))
        except BaseException as error:  # the assertion below says what went wrong
            failed.append(error)

    try:
        with first.engine.connect() as watcher:
            with first() as store:
                store.plan_zotero_copies(
                    channel=HERE, library=LIBRARY, copies=[plan(ids[0]), plan(ids[1])]
                )
                thread = threading.Thread(target=later)
                thread.start()
                # The second replica waits on the first's uncommitted plan of ids[1].
                assert waiting_on_locks(watcher=watcher, count=1, threads=[thread]), failed
            thread.join()
        assert failed == []
        assert _copies(first, ids) == {
            ids[0]: plan(ids[0]),
            ids[1]: plan(ids[1]),
            ids[2]: plan(ids[2], "B"),
        }
    finally:
        first.dispose()
        second.dispose()


def test_a_deleted_channel_takes_its_link_and_copies(any_database: Database) -> None:
    ids = _posts(any_database, 2)
    posted(any_database, channel=NEXT_DOOR, title="Next door's", days_ago=0)
    (theirs,) = post_ids(any_database, channel=NEXT_DOOR)
    with any_database() as store:
        store.save_zotero_link(link=link())
        store.save_zotero_link(link=link(NEXT_DOOR))
        store.plan_zotero_copies(channel=NEXT_DOOR, library=LIBRARY, copies=[plan(theirs)])
    _plan(any_database, plan(ids[0]), plan(ids[1]))
    with any_database() as store:
        # A deleted post takes its copy alone.
        store.session.execute(delete(PostRow).where(PostRow.id == ids[1]))
    assert _copies(any_database, ids) == {ids[0]: plan(ids[0])}
    with any_database() as store:
        store.session.execute(delete(ChannelRow).where(ChannelRow.external_id == "C1"))
    with any_database(write=False) as store:
        assert store.session.scalar(select(func.count()).select_from(ZoteroLinkRow)) == 1
        assert store.session.scalars(select(ZoteroCopyRow.post_id)).all() == [theirs]
        assert [found.channel for found in store.zotero_links()] == [NEXT_DOOR]


def test_hostile_values_are_kept_verbatim(any_database: Database) -> None:
    hostile = link(
        sealed_key=HOSTILE,
        source_name=HOSTILE,
        last_error=HOSTILE,
        connected_by="<!channel>",
        source="'; DROP",
    )
    with any_database() as store:
        store.save_zotero_link(link=hostile)
    with any_database(write=False) as store:
        assert store.zotero_link(channel=HERE) == hostile
    ids = _posts(any_database, 1)
    odd = plan(ids[0], item_key="<@U1>", note_key="@everyone", write_token="<b>x</b> 🧪")
    _plan(any_database, odd)
    assert _copies(any_database, ids) == {ids[0]: odd}
