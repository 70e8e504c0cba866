"""A sync's writes of a link: only its own columns, and only while the link is the one it
works for; a removed or reconnected link is left as the admin made it (never inserted again);
the channel's collection planned once, the first plan kept; on SQLite and PostgreSQL."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from bot.db.database import Database
from tests.db.sources_data import HERE, NOW
from tests.db.zotero_data import link


def test_a_sync_writes_its_columns_and_keeps_the_admins(any_database: Database) -> None:
    read = link(source="ABCD2345")
    with any_database() as store:
        store.save_zotero_link(link=read)
        store.save_zotero_link(link=replace(read, paused=True, source="EFGH2345", into="queue"))
    synced = replace(
        read,
        source_version=42,
        failures=2,
        retry_at=NOW + timedelta(hours=1),
        failing_since=NOW,
        last_error="HTTP 500",
        reported=True,
        synced_at=NOW,
        destination="ZZZZ2345",  # not the sync state's: planned apart
    )
    with any_database() as store:
        assert store.save_zotero_sync(link=synced) is True
    with any_database(write=False) as store:
        assert store.zotero_link(channel=HERE) == replace(
            synced, paused=True, source="EFGH2345", into="queue", destination=None
        )


def test_a_removed_or_reconnected_link_is_left_alone(any_database: Database) -> None:
    read = link()
    with any_database() as store:
        store.save_zotero_link(link=read)
        store.save_zotero_link(link=replace(read, sealed_key="sealed:v1:new"))
        assert store.save_zotero_sync(link=replace(read, failures=3)) is False
        assert store.plan_zotero_destination(link=read, replacing=None, key="ABCD2345") is None
    with any_database(write=False) as store:
        assert store.zotero_link(channel=HERE) == replace(read, sealed_key="sealed:v1:new")
    with any_database() as store:
        assert store.remove_zotero_link(channel=HERE)
        assert store.save_zotero_sync(link=replace(read, synced_at=NOW)) is False
    with any_database(write=False) as store:
        assert store.zotero_link(channel=HERE) is None


def test_the_first_planned_collection_is_kept(any_database: Database) -> None:
    read = link()
    with any_database() as store:
        store.save_zotero_link(link=read)
        assert store.plan_zotero_destination(link=read, replacing=None, key="AAAA2345") == (
            "AAAA2345"
        )
        # Another sync planning from the same stale read gets the first's.
        assert store.plan_zotero_destination(link=read, replacing=None, key="BBBB2345") == (
            "AAAA2345"
        )
        # Found deleted in Zotero: replaced once, by the first to say so.
        assert store.plan_zotero_destination(link=read, replacing="AAAA2345", key="CCCC2345") == (
            "CCCC2345"
        )
        assert store.plan_zotero_destination(link=read, replacing="AAAA2345", key="DDDD2345") == (
            "CCCC2345"
        )
    with any_database(write=False) as store:
        assert store.zotero_link(channel=HERE) == replace(read, destination="CCCC2345")
