"""The commands' changes of a Zotero link: `paused` alone, the failing state cleared only for
the key that was tested, each leaving the sync's columns as they are stored; on SQLite and,
where present, PostgreSQL."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from bot.db.database import Database
from tests.db.sources_data import HERE, NEXT_DOOR, NOW
from tests.db.zotero_data import link

LATER = NOW + timedelta(hours=2)
SYNCED = link(
    source="ABCD2345",
    source_name="Reading group",
    source_version=41,
    destination="DEST2345",
    failures=3,
    retry_at=LATER,
    failing_since=NOW,
    last_error="the key was revoked",
    reported=True,
    synced_at=NOW,
)


def test_pausing_sets_paused_alone(any_database: Database) -> None:
    with any_database() as store:
        store.save_zotero_link(link=SYNCED)
        assert store.pause_zotero_link(channel=HERE, paused=True)
        assert not store.pause_zotero_link(channel=NEXT_DOOR, paused=True)  # no link there
    with any_database(write=False) as store:
        assert store.zotero_link(channel=HERE) == replace(SYNCED, paused=True)
        assert store.zotero_link(channel=NEXT_DOOR) is None
    with any_database() as store:
        assert store.pause_zotero_link(channel=HERE, paused=False)
        assert store.zotero_link(channel=HERE) == SYNCED


def test_the_failing_state_is_cleared_for_the_tested_key_only(any_database: Database) -> None:
    with any_database() as store:
        store.save_zotero_link(link=SYNCED)
        assert not store.clear_zotero_failing(
            channel=HERE, sealed_key="sealed:v1:another", source_name="Renamed"
        )
        assert store.zotero_link(channel=HERE) == SYNCED  # connected anew meanwhile: kept
        assert store.clear_zotero_failing(
            channel=HERE, sealed_key=SYNCED.sealed_key, source_name="Renamed"
        )
    with any_database(write=False) as store:
        assert store.zotero_link(channel=HERE) == replace(
            SYNCED,
            source_name="Renamed",
            failures=0,
            retry_at=None,
            failing_since=None,
            last_error="",
            reported=False,
        )


def test_locking_a_link_changes_nothing(any_database: Database) -> None:
    with any_database() as store:
        store.lock_zotero_link(channel=HERE)  # no link, no channel row: nothing to hold
        store.save_zotero_link(link=SYNCED)
        store.lock_zotero_link(channel=HERE)
        assert store.zotero_link(channel=HERE) == SYNCED
