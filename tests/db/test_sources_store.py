"""The sources storage's watches, their read state, tray settings, and the channel row a watch
makes: on SQLite and, where present, PostgreSQL."""

from __future__ import annotations

from datetime import time, timedelta

from sqlalchemy import select

from bot.db.database import Database
from bot.db.schema import ChannelRow
from bot.domain import Schedule
from bot.ports.sources import SourceState, TraySettings, WatchSpec
from tests.db.sources_data import (
    ARXIV,
    ELSEWHERE,
    HERE,
    HOSTILE,
    NEXT_DOOR,
    NOW,
    ON_DISCORD,
    watch,
)

EVENINGS = Schedule(post_time=time(18, 30), timezone="Europe/Paris", weekdays=frozenset({2, 4}))


def test_a_watch_of_an_unfollowed_channel_makes_a_paused_watch_only_row(
    any_database: Database,
) -> None:
    watch(any_database)
    with any_database(write=False) as store:
        # Watching is not following: no followed channel, no daily post, no place on the Home.
        assert store.channel(key=HERE) is None
        assert [c.key for c in store.channels()] == []
        row = store.session.scalar(select(ChannelRow).where(ChannelRow.external_id == HERE.channel))
        assert row is not None and row.watch_only and row.paused and row.private
        assert row.post_time == "09:00" and row.timezone == "UTC"
        assert store.workspaces()  # its workspace is made as a follow makes it


def test_following_a_watch_only_channel_makes_it_post(any_database: Database) -> None:
    watch(any_database, channel=HERE)
    watch(any_database, channel=NEXT_DOOR)
    with any_database() as store:
        # The configured channel (PAPERCLUB_CHANNEL) follows on the settings' schedule.
        followed = store.add_channel_if_missing(key=HERE, schedule=EVENINGS, private=False)
        assert not followed.paused and not followed.private
        assert followed.schedule == EVENINGS
        # An admin's schedule.
        scheduled = store.save_channel(key=NEXT_DOOR, schedule=EVENINGS, private=False)
        assert not scheduled.paused
    with any_database(write=False) as store:
        for key in (HERE, NEXT_DOOR):
            channel = store.channel(key=key)
            assert channel is not None and not channel.paused
            row = store.session.get(ChannelRow, channel.id)
            assert row is not None and not row.watch_only


def test_a_followed_channel_keeps_its_row_and_a_paused_one_stays_paused(
    any_database: Database,
) -> None:
    with any_database() as store:
        store.save_channel(key=HERE, schedule=EVENINGS, private=False)
        paused = store.save_channel(key=NEXT_DOOR, schedule=EVENINGS, private=False)
        store.set_channel_flags(channel=paused, paused=True)
    watch(any_database, channel=HERE)
    watch(any_database, channel=NEXT_DOOR)
    with any_database() as store:
        store.add_channel_if_missing(key=NEXT_DOOR, schedule=EVENINGS, private=False)
    with any_database(write=False) as store:
        here, next_door = store.channel(key=HERE), store.channel(key=NEXT_DOOR)
        assert here is not None and not here.paused and here.schedule == EVENINGS
        # An admin's pause is not a watch's: following again does not undo it.
        assert next_door is not None and next_door.paused
        assert len(store.channels()) == 2


def test_the_same_spec_is_one_watch_and_another_spec_another(any_database: Database) -> None:
    first = watch(any_database)
    assert watch(any_database) == first
    narrowed = WatchSpec(kind="arxiv", target=ARXIV.target, keywords=("sparse",))
    by_author = WatchSpec(kind="arxiv", target=ARXIV.target, authors=("Hopper",))
    feed = WatchSpec(kind="feed", target="https://example.org/feed.xml")
    ids = {watch(any_database, spec=spec) for spec in (narrowed, by_author, feed)}
    assert len(ids | {first}) == 4
    # Another channel's same spec is its own watch.
    assert watch(any_database, channel=NEXT_DOOR) not in ids | {first}
    with any_database(write=False) as store:
        mine = store.watches(channel=HERE)
        assert [w.id for w in mine] == sorted(ids | {first})
        assert [w.spec for w in mine] == [ARXIV, narrowed, by_author, feed]
        assert all(w.channel == HERE and w.added_by == "U1" and w.added_at == NOW for w in mine)
        assert len(store.watches(channel=None)) == 5
        assert store.watches(channel=ELSEWHERE) == []


def test_removing_a_watch_keeps_it_from_the_live_ones_only(any_database: Database) -> None:
    gone = watch(any_database)
    kept = watch(any_database, spec=WatchSpec(kind="crossref", target="1234-5678"))
    theirs = watch(any_database, channel=NEXT_DOOR)
    later = NOW + timedelta(hours=1)
    with any_database() as store:
        # Another channel's id, and a channel with no row, change nothing.
        assert store.remove_watch(channel=HERE, watch_id=theirs, now=later) is None
        assert store.remove_watch(channel=ELSEWHERE, watch_id=gone, now=later) is None
        removed = store.remove_watch(channel=HERE, watch_id=gone, now=later)
        assert removed is not None and removed.id == gone and removed.spec == ARXIV
        assert store.remove_watch(channel=HERE, watch_id=gone, now=later) is None
    with any_database() as store:
        assert [w.id for w in store.watches(channel=HERE)] == [kept]
        assert [w.id for w in store.watches(channel=NEXT_DOOR)] == [theirs]
        # The same spec again is a new watch: the removed one stays removed.
        assert store.add_watch(channel=HERE, spec=ARXIV, user="U2", now=later) not in (gone, kept)


def test_channels_watching_are_the_platforms_with_a_live_watch(any_database: Database) -> None:
    watch(any_database, channel=HERE)
    gone = watch(any_database, channel=NEXT_DOOR)
    watch(any_database, channel=ON_DISCORD)
    with any_database() as store:
        store.save_channel(key=ELSEWHERE, schedule=EVENINGS, private=False)  # follows, no watch
        store.remove_watch(channel=NEXT_DOOR, watch_id=gone, now=NOW)
    with any_database(write=False) as store:
        assert store.channels_watching(platform="slack") == [HERE]
        assert store.channels_watching(platform="discord") == [ON_DISCORD]
        assert store.channels_watching(platform="console") == []


def test_a_hostile_spec_round_trips_unchanged(any_database: Database) -> None:
    spec = WatchSpec(
        kind="feed",
        target="https://example.org/feed?q=<!channel>&x=" + "é" * 3_000,
        keywords=(HOSTILE, "@everyone", "🧪"),
        authors=("<@U1>", "Zoë O'Brien-Łukasz"),
    )
    with any_database() as store:
        watch_id = store.add_watch(channel=HERE, spec=spec, user="<!here>", now=NOW)
    with any_database(write=False) as store:
        (found,) = store.watches(channel=HERE)
    assert (found.id, found.spec, found.added_by) == (watch_id, spec, "<!here>")


def test_source_state_is_fresh_until_saved_then_replaced(any_database: Database) -> None:
    watch_id = watch(any_database)
    other = watch(any_database, channel=NEXT_DOOR)
    with any_database(write=False) as store:
        assert store.source_state(watch_id=watch_id) == SourceState(watch_id=watch_id)
    failing = SourceState(
        watch_id=watch_id,
        cycle="2026-12-07",
        etag='W/"abc"',
        last_modified="Mon, 07 Dec 2026 20:00:00 GMT",
        read_at=NOW,
        failures=3,
        retry_at=NOW + timedelta(minutes=40),
        failing_since=NOW - timedelta(hours=2),
        last_error=HOSTILE,
        reported=True,
    )
    with any_database() as store:
        assert store.source_state(watch_id=watch_id).failures == 0
        store.save_source_state(state=failing)
        assert store.source_state(watch_id=watch_id) == failing
    recovered = SourceState(watch_id=watch_id, cycle="2026-12-08", read_at=NOW)
    with any_database() as store:
        store.save_source_state(state=recovered)
    with any_database(write=False) as store:
        assert store.source_state(watch_id=watch_id) == recovered
        assert store.source_state(watch_id=other) == SourceState(watch_id=other)


def test_tray_settings_default_until_saved_per_channel(any_database: Database) -> None:
    with any_database(write=False) as store:
        assert store.tray_settings(channel=HERE) == TraySettings()
    assert TraySettings() == TraySettings(per_day=3, autofill=False, autofill_below=1)
    chosen = TraySettings(per_day=5, autofill=True, autofill_below=4)
    with any_database() as store:
        store.save_tray_settings(channel=HERE, settings=chosen)  # no row yet: made, watch-only
        assert store.tray_settings(channel=HERE) == chosen
    with any_database() as store:
        store.save_tray_settings(channel=HERE, settings=TraySettings(per_day=0))
    with any_database(write=False) as store:
        assert store.tray_settings(channel=HERE) == TraySettings(per_day=0)
        assert store.tray_settings(channel=NEXT_DOOR) == TraySettings()
        assert store.channel(key=HERE) is None  # settings alone do not follow
