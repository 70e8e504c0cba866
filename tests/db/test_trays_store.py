"""The sources storage's trays: one per channel and local day, its picks shown in order and the
day before's passed, its message noted; on SQLite and, where present, PostgreSQL."""

from __future__ import annotations

from datetime import timedelta

from bot.db.database import Database
from bot.domain import ChannelKey
from bot.ports.sources import Pick, Suggestion
from bot.sources.rank import NEW, Reason
from tests.db.sources_data import (
    DAY,
    HERE,
    HOSTILE,
    NEXT_DOOR,
    NOW,
    ON_DISCORD,
    candidate,
    watch,
)

CLOSE = Reason(kind="close", value=HOSTILE, count=0)
ALL = ("waiting", "shown", "promoted", "hidden", "passed")
AUTHOR = Reason(kind="author", value="Grace Hopper", count=3)


def _waiting(database: Database, *, n: int, channel: ChannelKey = HERE) -> list[Suggestion]:
    """n suggestions of the channel, waiting, oldest first."""
    watch_id = watch(database, channel=channel)
    offset = 100 if channel != HERE else 0
    with database() as store:
        store.add_suggestions(
            channel=channel,
            watch_id=watch_id,
            candidates=[candidate(offset + i) for i in range(1, n + 1)],
            now=NOW,
        )
        return sorted(
            store.suggestions(channel=channel, states=["waiting"], limit=n), key=lambda s: s.id
        )


def test_a_tray_shows_its_picks_in_order_once_a_day(any_database: Database) -> None:
    first, second, third = _waiting(any_database, n=3)
    picks = [Pick(third.id, CLOSE, 2.5), Pick(first.id, AUTHOR, 1.25)]
    with any_database() as store:
        tray = store.open_tray(channel=HERE, day=DAY, picks=picks, now=NOW)
        assert tray is not None
        assert (tray.channel, tray.day, tray.message_id, tray.opened_at) == (HERE, DAY, None, NOW)
        assert tray.suggestion_ids == (third.id, first.id)
        # A second sweep, or another replica, finds the day's tray opened.
        again = store.open_tray(channel=HERE, day=DAY, picks=[Pick(second.id, NEW, 9.0)], now=NOW)
        assert again is None
    with any_database(write=False) as store:
        assert store.tray_on(channel=HERE, day=DAY) == tray
        assert store.tray_on(channel=HERE, day=DAY + timedelta(days=1)) is None
        assert store.tray_on(channel=NEXT_DOOR, day=DAY) is None
        shown = store.suggestion(channel=HERE, suggestion_id=third.id)
        waiting = store.suggestion(channel=HERE, suggestion_id=second.id)
    assert shown is not None and waiting is not None
    assert (shown.state, shown.reason, shown.score, shown.shown_on) == ("shown", CLOSE, 2.5, DAY)
    assert (waiting.state, waiting.reason, waiting.shown_on) == ("waiting", None, None)


def test_the_next_days_tray_passes_what_was_left_undecided(any_database: Database) -> None:
    one, two, three, four = _waiting(any_database, n=4)
    tomorrow = DAY + timedelta(days=1)
    with any_database() as store:
        store.open_tray(
            channel=HERE, day=DAY, picks=[Pick(one.id, NEW, 1), Pick(two.id, NEW, 1)], now=NOW
        )
        assert store.decide_suggestion(suggestion_id=two.id, state="promoted", user="U1", now=NOW)
    with any_database() as store:
        tray = store.open_tray(
            channel=HERE, day=tomorrow, picks=[Pick(three.id, NEW, 0.5)], now=NOW
        )
        assert tray is not None and tray.suggestion_ids == (three.id,)
        states = {s.id: s.state for s in store.suggestions(channel=HERE, states=ALL, limit=9)}
    assert states == {one.id: "passed", two.id: "promoted", three.id: "shown", four.id: "waiting"}
    with any_database() as store:
        # Passed is still decidable (a click on yesterday's tray).
        assert store.decide_suggestion(suggestion_id=one.id, state="hidden", user="U1", now=NOW)


def test_picks_of_another_channel_or_twice_are_left_out(any_database: Database) -> None:
    (mine,) = _waiting(any_database, n=1)
    (theirs,) = _waiting(any_database, n=1, channel=NEXT_DOOR)
    picks = [Pick(theirs.id, NEW, 3), Pick(mine.id, NEW, 2), Pick(mine.id, AUTHOR, 1)]
    with any_database() as store:
        tray = store.open_tray(channel=HERE, day=DAY, picks=picks, now=NOW)
        assert tray is not None and tray.suggestion_ids == (mine.id,)
        untouched = store.suggestion(channel=NEXT_DOOR, suggestion_id=theirs.id)
        assert untouched is not None and untouched.state == "waiting"
        # A channel with no row has nothing to show.
        assert store.open_tray(channel=ON_DISCORD, day=DAY, picks=picks, now=NOW) is None


def test_a_tray_posted_is_noted_and_unposted_ones_found(any_database: Database) -> None:
    (a,) = _waiting(any_database, n=1)
    (b,) = _waiting(any_database, n=1, channel=NEXT_DOOR)
    with any_database() as store:
        old = store.open_tray(
            channel=HERE, day=DAY - timedelta(days=3), picks=[], now=NOW - timedelta(days=3)
        )
        mine = store.open_tray(channel=HERE, day=DAY, picks=[Pick(a.id, NEW, 1)], now=NOW)
        theirs = store.open_tray(
            channel=NEXT_DOOR, day=DAY, picks=[Pick(b.id, NEW, 1)], now=NOW + timedelta(seconds=1)
        )
        assert old is not None and mine is not None and theirs is not None
        assert old.suggestion_ids == ()
        assert store.unposted_trays(platform="slack", since=DAY) == [mine, theirs]
        store.tray_posted(tray_id=mine.id, message_id="1700000000.000100")
    with any_database(write=False) as store:
        assert store.unposted_trays(platform="slack", since=DAY - timedelta(days=7)) == [
            old,
            theirs,
        ]
        assert store.unposted_trays(platform="discord", since=DAY) == []
        noted = store.tray_on(channel=HERE, day=DAY)
        assert noted is not None and noted.message_id == "1700000000.000100"
        assert store.tray_of(suggestion_id=a.id) == noted
        assert store.tray_of(suggestion_id=b.id) == theirs


def test_tray_of_is_the_latest_tray_holding_it(any_database: Database) -> None:
    (a,) = _waiting(any_database, n=1)
    with any_database() as store:
        first = store.open_tray(channel=HERE, day=DAY, picks=[Pick(a.id, NEW, 1)], now=NOW)
        later = store.open_tray(
            channel=HERE, day=DAY + timedelta(days=2), picks=[Pick(a.id, NEW, 1)], now=NOW
        )
        assert first is not None and later is not None
        assert store.tray_of(suggestion_id=a.id) == later
        assert store.tray_of(suggestion_id=a.id + 1_000) is None
