"""Reminders and poll windows: whole days back on the wall clock, minutes back in elapsed
time, across DST changes in Berlin, New York and Lord Howe, and the refusals.

Expected instants are written out in UTC (see test_recurrence.py for the zones' rules).
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.meetings.meeting import Meeting, Move, OneOff, Session
from bot.meetings.recurrence import next_session, sessions_between
from bot.meetings.reminders import (
    DEFAULT_OFFSETS,
    Before,
    PollWindow,
    Reminder,
    lead_instant,
    poll_window,
    reminders,
)

DAY = Before(days=1)
HALF_HOUR = Before(minutes=30)


def _utc(year: int, month: int, day: int, hour: int = 0, minute: int = 0) -> datetime:
    """An aware UTC instant."""
    return datetime(year, month, day, hour, minute, tzinfo=UTC)


def _session(*, zone: str, day: date, at: time = time(18, 0)) -> Session:
    """The first session of a weekly meeting held on `day` at `at`."""
    meeting = Meeting(
        weekday=day.isoweekday(), start=at, zone=zone, first_date=day, duration=timedelta(hours=1)
    )
    found = next_session(meeting=meeting, now=_utc(day.year - 1, 1, 1))
    assert found is not None and found.day == day
    return found


def test_the_defaults_are_a_day_and_half_an_hour() -> None:
    assert DEFAULT_OFFSETS == (DAY, HALF_HOUR)
    session = _session(zone="Europe/Berlin", day=date(2026, 1, 15))  # 17:00 UTC
    assert reminders(session=session) == (
        Reminder(at=_utc(2026, 1, 14, 17), before=DAY),
        Reminder(at=_utc(2026, 1, 15, 16, 30), before=HALF_HOUR),
    )


@pytest.mark.parametrize(
    ("zone", "day", "start", "day_before", "hours"),
    [
        # Sunday of the spring change: 18:00 the day before was on winter time.
        ("Europe/Berlin", date(2026, 3, 29), _utc(2026, 3, 29, 16), _utc(2026, 3, 28, 17), 23),
        ("Europe/Berlin", date(2026, 10, 25), _utc(2026, 10, 25, 17), _utc(2026, 10, 24, 16), 25),
        ("America/New_York", date(2026, 3, 8), _utc(2026, 3, 8, 22), _utc(2026, 3, 7, 23), 23),
        ("America/New_York", date(2026, 11, 1), _utc(2026, 11, 1, 23), _utc(2026, 10, 31, 22), 25),
        # Half-hour changes: 23 and a half hours, 24 and a half.
        (
            "Australia/Lord_Howe", date(2026, 10, 4), _utc(2026, 10, 4, 7),
            _utc(2026, 10, 3, 7, 30), 23.5,
        ),
        (
            "Australia/Lord_Howe", date(2026, 4, 5), _utc(2026, 4, 5, 7, 30),
            _utc(2026, 4, 4, 7), 24.5,
        ),
    ],
)  # fmt: skip
def test_a_day_before_is_the_same_wall_time_and_half_an_hour_is_half_an_hour(
    zone: str, day: date, start: datetime, day_before: datetime, hours: float
) -> None:
    session = _session(zone=zone, day=day)
    assert session.start == start
    assert reminders(session=session) == (
        Reminder(at=day_before, before=DAY),
        Reminder(at=start - timedelta(minutes=30), before=HALF_HOUR),
    )
    assert start - day_before == timedelta(hours=hours)
    local = day_before.astimezone(ZoneInfo(zone))
    assert local.time() == time(18, 0) and local.date() == day - timedelta(days=1)


def test_a_day_before_in_the_spring_gap_moves_forward_by_it() -> None:
    # Monday 30 Mar 2026 02:30 Berlin; Sunday's 02:30 never happened, so 03:30 (CEST).
    session = _session(zone="Europe/Berlin", day=date(2026, 3, 30), at=time(2, 30))
    assert session.start == _utc(2026, 3, 30, 0, 30)
    assert lead_instant(session=session, before=DAY) == _utc(2026, 3, 29, 1, 30)


def test_a_day_before_on_the_autumn_double_is_its_first_occurrence() -> None:
    # Monday 26 Oct 2026 02:30 Berlin (CET); Sunday's 02:30 came twice, first on CEST.
    session = _session(zone="Europe/Berlin", day=date(2026, 10, 26), at=time(2, 30))
    assert session.start == _utc(2026, 10, 26, 1, 30)
    assert lead_instant(session=session, before=DAY) == _utc(2026, 10, 25, 0, 30)


def test_a_session_pushed_out_of_a_gap_is_reminded_at_its_own_wall_time() -> None:
    # Sunday 29 Mar 2026 02:30 Berlin happens at 03:30; the day before, 03:30 (CET).
    session = _session(zone="Europe/Berlin", day=date(2026, 3, 29), at=time(2, 30))
    assert session.start == _utc(2026, 3, 29, 1, 30)
    assert lead_instant(session=session, before=DAY) == _utc(2026, 3, 28, 2, 30)


def test_days_and_minutes_combine_and_a_week_is_seven_wall_days() -> None:
    session = _session(zone="Europe/Berlin", day=date(2026, 4, 2))  # Thursday, 16:00 UTC
    # Thursday 26 Mar was on winter time: 18:00 then was 17:00 UTC, less an hour.
    assert lead_instant(session=session, before=Before(days=7, minutes=60)) == _utc(2026, 3, 26, 16)
    assert lead_instant(session=session, before=Before()) == session.start


def test_reminders_are_earliest_first_once_each() -> None:
    session = _session(zone="America/New_York", day=date(2026, 3, 8))
    offsets = [HALF_HOUR, Before(minutes=5), DAY, HALF_HOUR, Before(days=2)]
    found = reminders(session=session, offsets=offsets)
    assert [r.before for r in found] == [Before(days=2), DAY, HALF_HOUR, Before(minutes=5)]
    assert [r.at for r in found] == sorted(r.at for r in found)
    assert reminders(session=session, offsets=()) == ()


def test_moved_sessions_and_one_offs_are_reminded_where_they_happen() -> None:
    meeting = Meeting(
        weekday=4,
        start=time(18, 0),
        zone="Europe/Berlin",
        first_date=date(2026, 3, 26),
        duration=timedelta(hours=1),
    )
    moved, one_off = sessions_between(
        meeting=meeting,
        exceptions=[Move(day=date(2026, 3, 26), to_day=date(2026, 3, 30), to_time=time(9, 0))],
        one_offs=[OneOff(day=date(2026, 3, 31), at=time(7, 0))],
        start=_utc(2026, 3, 29),
        end=_utc(2026, 4, 1),
    )
    # Monday 30 Mar 09:00 CEST; the day before, Sunday, is CEST from 03:00 on.
    assert reminders(session=moved)[0] == Reminder(at=_utc(2026, 3, 29, 7), before=DAY)
    assert reminders(session=one_off)[1] == Reminder(at=_utc(2026, 3, 31, 4, 30), before=HALF_HOUR)


def test_a_poll_window_is_two_lead_times() -> None:
    session = _session(zone="Europe/Berlin", day=date(2026, 3, 31))  # Tuesday, 16:00 UTC
    window = poll_window(session=session, opens_before=Before(days=3), closes_before=HALF_HOUR)
    # Saturday 28 Mar 18:00 was CET.
    assert window == PollWindow(opens=_utc(2026, 3, 28, 17), closes=_utc(2026, 3, 31, 15, 30))


@pytest.mark.parametrize(
    ("opens", "closes"),
    [(HALF_HOUR, DAY), (DAY, DAY), (Before(), Before())],
)
def test_a_poll_that_closes_before_it_opens_is_refused(opens: Before, closes: Before) -> None:
    session = _session(zone="Europe/Berlin", day=date(2026, 3, 31))
    with pytest.raises(ValueError, match="closes after it opens"):
        poll_window(session=session, opens_before=opens, closes_before=closes)


def test_a_lead_time_never_points_past_the_session() -> None:
    with pytest.raises(ValueError, match="negative"):
        Before(days=-1)
    with pytest.raises(ValueError, match="negative"):
        Before(minutes=-30)


ZONES = ("Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "America/Santiago")


@settings(max_examples=200, deadline=None, database=None)
@given(
    zone=st.sampled_from(ZONES),
    day=st.dates(min_value=date(2001, 1, 1), max_value=date(2039, 1, 1)),
    hour=st.integers(min_value=5, max_value=22),  # no change happens between 05:00 and 23:00
    days=st.integers(min_value=0, max_value=60),
    minutes=st.integers(min_value=0, max_value=3000),
)
def test_days_back_keep_the_wall_time_and_minutes_back_are_elapsed(
    zone: str, day: date, hour: int, days: int, minutes: int
) -> None:
    session = _session(zone=zone, day=day, at=time(hour, 0))
    back = lead_instant(session=session, before=Before(days=days))
    local = back.astimezone(ZoneInfo(zone))
    assert local.time() == time(hour, 0) and local.date() == day - timedelta(days=days)
    both = lead_instant(session=session, before=Before(days=days, minutes=minutes))
    assert back - both == timedelta(minutes=minutes)
