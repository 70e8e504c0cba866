"""The meetings storage: a channel's meeting and its changes, its sessions (kept, each change
bumping the sequence) and the channels that have one; on SQLite and, where present,
PostgreSQL. Notices and RSVPs: test_meeting_notices_store.py."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest

from bot.db.database import Database
from bot.domain import ChannelKey
from bot.meetings.meeting import Meeting, Move, OneOff, Session, Skip
from bot.ports.meetings import MeetingPlan
from tests.db.meetings_data import BERLIN, FAR_AHEAD, LONG_AGO, REMINDERS, WEEKLY, session_on
from tests.db.sources_data import DAY, ELSEWHERE, HERE, HOSTILE, NEXT_DOOR, NOW, ON_DISCORD


def _meeting(database: Database, *, channel: ChannelKey = HERE) -> None:
    """The channel's weekly meeting, its row made when missing."""
    with database() as store:
        store.save_meeting(channel=channel, meeting=WEEKLY, reminders=REMINDERS, now=NOW)


def test_a_plan_round_trips_with_its_changes_and_one_offs(any_database: Database) -> None:
    skip = Skip(day=DAY + timedelta(weeks=1))
    move = Move(day=DAY + timedelta(weeks=2), to_day=DAY + timedelta(days=15), to_time=time(9, 30))
    moved_out = Move(
        day=DAY + timedelta(weeks=3), to_day=DAY + timedelta(weeks=3), to_time=time(8), place="B2"
    )
    once = OneOff(day=DAY + timedelta(days=3), at=time(12, 15))
    long_once = OneOff(
        day=DAY + timedelta(days=4), at=time(7), duration=timedelta(hours=3), place=HOSTILE
    )
    with any_database() as store:
        assert store.meeting_plan(channel=HERE) is None
        store.save_meeting(channel=HERE, meeting=WEEKLY, reminders=REMINDERS, now=NOW)
        for change in (long_once, moved_out, skip, once, move):
            store.add_change(channel=HERE, change=change)
    with any_database(write=False) as store:
        plan = store.meeting_plan(channel=HERE)
    assert plan == MeetingPlan(
        channel=HERE,
        meeting=WEEKLY,
        reminders=REMINDERS,  # in the order given
        changes=(skip, move, moved_out),  # by date
        one_offs=(once, long_once),
    )
    assert plan.meeting.place == HOSTILE  # 10,000 characters, mentions and emoji, as given


def test_a_change_replaces_the_dates_earlier_one_of_its_kind(any_database: Database) -> None:
    _meeting(any_database)
    day = DAY + timedelta(weeks=1)
    with any_database() as store:
        store.add_change(channel=HERE, change=Move(day=day, to_day=day, to_time=time(19)))
        store.add_change(channel=HERE, change=OneOff(day=day, at=time(8)))
        # A skip replaces the date's move (one series session a date), a one-off the one-off.
        store.add_change(channel=HERE, change=Skip(day=day))
        store.add_change(channel=HERE, change=OneOff(day=day, at=time(9), place="Hall"))
        # Saving the meeting anew keeps its changes.
        later = Meeting(
            weekday=4, start=time(17, 45), zone="UTC", first_date=DAY, duration=timedelta(hours=1)
        )
        store.save_meeting(channel=HERE, meeting=later, reminders=(), now=NOW)
        plan = store.meeting_plan(channel=HERE)
        assert plan is not None
        assert (plan.meeting, plan.reminders) == (later, ())
        assert plan.changes == (Skip(day=day),)
        assert plan.one_offs == (OneOff(day=day, at=time(9), place="Hall"),)
        assert store.drop_change(channel=HERE, day=day, one_off=False)
        assert not store.drop_change(channel=HERE, day=day, one_off=False)
        assert not store.drop_change(channel=HERE, day=day + timedelta(days=1), one_off=True)
        plan = store.meeting_plan(channel=HERE)
        assert plan is not None and plan.changes == () and len(plan.one_offs) == 1


def test_a_time_or_length_finer_than_a_minute_is_refused(any_database: Database) -> None:
    seconds = Meeting(
        weekday=1, start=time(18, 0, 30), zone="UTC", first_date=DAY, duration=timedelta(hours=1)
    )
    with any_database() as store, pytest.raises(ValueError, match="whole minutes"):
        store.save_meeting(channel=HERE, meeting=seconds, reminders=(), now=NOW)
    odd = OneOff(day=DAY, at=time(9), duration=timedelta(minutes=1, seconds=1))
    with any_database() as store, pytest.raises(ValueError, match="whole minutes"):
        store.add_change(channel=HERE, change=odd)


def test_dropping_a_meeting_keeps_its_sessions_to_be_cancelled(any_database: Database) -> None:
    _meeting(any_database)
    past, coming = session_on(DAY - timedelta(weeks=1)), session_on(DAY + timedelta(weeks=1))
    with any_database() as store:
        store.add_change(channel=HERE, change=Skip(day=DAY))
        assert store.add_session(channel=HERE, session=past, now=NOW) is not None
        coming_id = store.add_session(channel=HERE, session=coming, now=NOW)
        assert coming_id is not None
        assert store.drop_meeting(channel=HERE)
        assert not store.drop_meeting(channel=HERE)
        assert not store.drop_meeting(channel=ON_DISCORD)  # no channel row at all
        assert store.meeting_plan(channel=HERE) is None
        # Its sessions stay, and the channel is named while one not cancelled is to come.
        assert len(store.session_records(channel=HERE, since=past.start, until=coming.end)) == 2
        assert store.meeting_channels(platform="slack", now=NOW) == [HERE]
        store.change_session(session_id=coming_id, session=coming, cancelled=True, now=NOW)
        assert store.meeting_channels(platform="slack", now=NOW) == []
    _meeting(any_database)
    with any_database(write=False) as store:
        plan = store.meeting_plan(channel=HERE)
    assert plan is not None and plan.changes == ()  # the dropped skip is gone for good


def test_meeting_channels_are_the_platforms_own(any_database: Database) -> None:
    for channel in (NEXT_DOOR, ON_DISCORD, HERE):
        _meeting(any_database, channel=channel)
    with any_database() as store:
        # A session of a channel with no meeting, long past: nothing left to cancel.
        store.add_session(channel=ELSEWHERE, session=session_on(DAY - timedelta(days=1)), now=NOW)
        assert store.meeting_channels(platform="slack", now=NOW) == [NEXT_DOOR, HERE]
        assert store.meeting_channels(platform="discord", now=NOW) == [ON_DISCORD]
        # Its channel row is made as a watch's is: not a follow, so no daily post before one.
        assert store.channel(key=HERE) is None


def test_a_session_is_made_once_and_each_change_bumps_its_sequence(
    any_database: Database,
) -> None:
    _meeting(any_database)
    session = session_on(DAY)
    with any_database() as store:
        session_id = store.add_session(channel=HERE, session=session, now=NOW)
        assert session_id is not None
        # Another sweep, or replica, finds it made; a one-off of that date is another session.
        assert store.add_session(channel=HERE, session=session_on(DAY), now=NOW) is None
        one_off = store.add_session(channel=HERE, session=session_on(DAY, one_off=True), now=NOW)
        assert one_off not in (None, session_id)
    with any_database(write=False) as store:
        made = store.session_record(session_id=session_id)
    assert made is not None
    assert (made.channel, made.session, made.cancelled, made.sequence) == (HERE, session, False, 0)
    assert made.modified_at == NOW and made.session.start.utcoffset() == timedelta(0)
    assert made.session.place == HOSTILE
    later = NOW + timedelta(hours=2)
    # Given in Berlin's time, kept as the same instant.
    start = datetime(2026, 12, 8, 20, 0, tzinfo=ZoneInfo(BERLIN))
    moved = Session(
        day=DAY, start=start, end=start + timedelta(hours=1), zone=BERLIN, place="", moved=True
    )
    with any_database() as store:
        store.change_session(session_id=session_id, session=moved, cancelled=False, now=later)
        store.change_session(session_id=session_id, session=moved, cancelled=True, now=later)
        changed = store.session_record(session_id=session_id)
        assert store.session_record(session_id=session_id + 1_000) is None
    assert changed is not None
    assert (changed.session, changed.cancelled, changed.sequence) == (moved, True, 2)
    assert changed.session.start == datetime(2026, 12, 8, 19, 0, tzinfo=UTC)
    assert changed.session.start.utcoffset() == timedelta(0) and changed.modified_at == later


def test_session_records_are_a_channels_in_a_range_earliest_first(
    any_database: Database,
) -> None:
    days = [DAY + timedelta(weeks=n) for n in range(4)]
    with any_database() as store:
        ids = [store.add_session(channel=HERE, session=session_on(day), now=NOW) for day in days]
        early = store.add_session(
            channel=HERE, session=session_on(days[1], one_off=True, at=time(7)), now=NOW
        )
        store.add_session(channel=NEXT_DOOR, session=session_on(days[1]), now=NOW)
        assert ids[2] is not None
        store.change_session(
            session_id=ids[2], session=session_on(days[2]), cancelled=True, now=NOW
        )
    since, until = session_on(days[1]).start, session_on(days[3]).start
    with any_database(write=False) as store:
        found = store.session_records(channel=HERE, since=since - timedelta(hours=11), until=until)
        assert [record.id for record in found] == [early, ids[1], ids[2]]  # until excluded
        assert [record.cancelled for record in found] == [False, False, True]
        assert [r.id for r in store.session_records(channel=HERE, since=since, until=since)] == []
        assert store.session_records(channel=ELSEWHERE, since=LONG_AGO, until=FAR_AHEAD) == []
        assert len(store.session_records(channel=NEXT_DOOR, since=LONG_AGO, until=FAR_AHEAD)) == 1


def test_another_workspace_sees_nothing_of_this_ones(any_database: Database) -> None:
    _meeting(any_database)
    with any_database() as store:
        store.add_change(channel=HERE, change=Skip(day=DAY))
        store.add_session(channel=HERE, session=session_on(DAY), now=NOW)
    # ELSEWHERE is channel C1 too, in workspace T2.
    with any_database() as store:
        assert store.meeting_plan(channel=ELSEWHERE) is None
        assert store.session_records(channel=ELSEWHERE, since=LONG_AGO, until=FAR_AHEAD) == []
        assert not store.drop_change(channel=ELSEWHERE, day=DAY, one_off=False)
        assert not store.drop_meeting(channel=ELSEWHERE)
        assert store.meeting_channels(platform="slack", now=NOW) == [HERE]
        plan = store.meeting_plan(channel=HERE)
    assert plan is not None and plan.changes == (Skip(day=DAY),)
