"""A channel's calendar: weekly and fortnightly series, skips, moves and one-offs, wall-clock
times across DST in three zones, the missing and the doubled local times, and properties.

Expected instants are written out in UTC from the zones' published rules (the EU changes at
01:00 UTC on the last Sundays of March and October; the US at 02:00 local on the second
Sunday of March and the first of November; Lord Howe by 30 minutes at 02:00 local on the
first Sundays of October and April), not computed by the code under test.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest

from bot.meetings.meeting import Meeting, Move, OneOff, Session, Skip
from bot.meetings.recurrence import next_session, sessions_between

HOUR = timedelta(hours=1)


def _utc(year: int, month: int, day: int, hour: int = 0, minute: int = 0) -> datetime:
    """An aware UTC instant."""
    return datetime(year, month, day, hour, minute, tzinfo=UTC)


def _meeting(**changes: object) -> Meeting:
    """Thursdays 18:00 in Berlin for 90 minutes from 1 Jan 2026, unless told otherwise."""
    fields: dict[str, object] = {
        "weekday": 4,
        "start": time(18, 0),
        "zone": "Europe/Berlin",
        "first_date": date(2026, 1, 1),
        "duration": timedelta(minutes=90),
        "place": "Room 101",
    }
    return Meeting(**{**fields, **changes})  # type: ignore[arg-type]


def _starts(sessions: tuple[Session, ...]) -> list[datetime]:
    return [s.start for s in sessions]


def test_weekly_sessions_are_each_thursday_at_the_local_time() -> None:
    sessions = sessions_between(
        meeting=_meeting(), start=_utc(2026, 1, 1), end=_utc(2026, 1, 29, 17)
    )
    assert [s.day for s in sessions] == [date(2026, 1, d) for d in (1, 8, 15, 22)]
    assert _starts(sessions) == [_utc(2026, 1, d, 17) for d in (1, 8, 15, 22)]
    first = sessions[0]
    assert first.end == _utc(2026, 1, 1, 18, 30) and first.place == "Room 101"
    assert not first.moved and not first.one_off and first.key == (False, date(2026, 1, 1))
    assert first.local_start == datetime(2026, 1, 1, 18, tzinfo=ZoneInfo("Europe/Berlin"))


def test_the_window_is_half_open_on_session_starts() -> None:
    meeting = _meeting()
    assert _starts(
        sessions_between(meeting=meeting, start=_utc(2026, 1, 8, 17), end=_utc(2026, 1, 15, 17))
    ) == [_utc(2026, 1, 8, 17)]
    # A session under way when the window opens started before it: not listed.
    assert (
        sessions_between(meeting=meeting, start=_utc(2026, 1, 8, 17, 1), end=_utc(2026, 1, 15, 17))
        == ()
    )


def test_fortnightly_counts_weeks_from_the_first_session_day() -> None:
    # First date a Saturday: the first Thursday on or after it is 8 Jan, then every 14 days.
    meeting = _meeting(first_date=date(2026, 1, 3), every_weeks=2)
    sessions = sessions_between(meeting=meeting, start=_utc(2025, 12, 1), end=_utc(2026, 3, 1))
    assert [s.day for s in sessions] == [
        date(2026, 1, 8),
        date(2026, 1, 22),
        date(2026, 2, 5),
        date(2026, 2, 19),
    ]
    # A window starting mid-series finds the same rhythm.
    later = sessions_between(meeting=meeting, start=_utc(2026, 1, 23), end=_utc(2026, 2, 20))
    assert [s.day for s in later] == [date(2026, 2, 5), date(2026, 2, 19)]


def test_until_is_the_last_local_date_included() -> None:
    meeting = _meeting(until=date(2026, 1, 15))
    sessions = sessions_between(meeting=meeting, start=_utc(2026, 1, 1), end=_utc(2026, 6, 1))
    assert [s.day for s in sessions] == [date(2026, 1, 1), date(2026, 1, 8), date(2026, 1, 15)]
    assert next_session(meeting=meeting, now=_utc(2026, 1, 15, 17, 1)) is None


def test_skips_and_moves_keep_the_series_date_as_key() -> None:
    exceptions = [
        Skip(day=date(2026, 1, 8)),
        Move(
            day=date(2026, 1, 15),
            to_day=date(2026, 1, 16),
            to_time=time(12, 30),
            place="<!channel> @everyone Café 🎉",
        ),
    ]
    sessions = sessions_between(
        meeting=_meeting(), exceptions=exceptions, start=_utc(2026, 1, 1), end=_utc(2026, 1, 23)
    )
    assert [(s.day, s.start, s.moved) for s in sessions] == [
        (date(2026, 1, 1), _utc(2026, 1, 1, 17), False),
        (date(2026, 1, 15), _utc(2026, 1, 16, 11, 30), True),
        (date(2026, 1, 22), _utc(2026, 1, 22, 17), False),
    ]
    moved = sessions[1]
    assert moved.place == "<!channel> @everyone Café 🎉"  # kept as typed, for the edges to escape
    assert moved.end - moved.start == timedelta(minutes=90)


def test_a_move_across_the_window_edge_follows_the_session() -> None:
    # 29 Jan moved back to 20 Jan; 5 Feb moved out, to 20 Feb.
    exceptions = [
        Move(day=date(2026, 1, 29), to_day=date(2026, 1, 20), to_time=time(9, 0)),
        Move(day=date(2026, 2, 5), to_day=date(2026, 2, 20), to_time=time(9, 0)),
    ]
    sessions = sessions_between(
        meeting=_meeting(), exceptions=exceptions, start=_utc(2026, 1, 19), end=_utc(2026, 2, 13)
    )
    assert [(s.day, s.start) for s in sessions] == [
        (date(2026, 1, 29), _utc(2026, 1, 20, 8)),
        (date(2026, 1, 22), _utc(2026, 1, 22, 17)),
        (date(2026, 2, 12), _utc(2026, 2, 12, 17)),
    ]
    found = next_session(meeting=_meeting(), exceptions=exceptions, now=_utc(2026, 1, 19))
    assert found == sessions[0]


def test_exceptions_off_the_series_are_ignored_and_doubles_refused() -> None:
    # A Wednesday is no session day: its skip and move change nothing (the meeting moved days).
    stray = [
        Skip(day=date(2026, 1, 7)),
        Move(day=date(2026, 1, 14), to_day=date(2026, 1, 14), to_time=time(9, 0)),
    ]
    window = {"start": _utc(2026, 1, 1), "end": _utc(2026, 1, 20)}
    plain = sessions_between(meeting=_meeting(), **window)
    assert sessions_between(meeting=_meeting(), exceptions=stray, **window) == plain
    with pytest.raises(ValueError, match="two exceptions"):
        sessions_between(meeting=_meeting(), exceptions=[Skip(day=date(2026, 1, 8))] * 2, **window)
    with pytest.raises(ValueError, match="two one-off"):
        sessions_between(
            meeting=_meeting(), one_offs=[OneOff(day=date(2026, 1, 9), at=time(9))] * 2, **window
        )


def test_one_offs_merge_in_time_order() -> None:
    one_offs = [
        OneOff(day=date(2026, 1, 10), at=time(10, 0), duration=timedelta(hours=3), place="Lab"),
        OneOff(day=date(2026, 1, 8), at=time(9, 0)),  # the morning of a series day
    ]
    sessions = sessions_between(
        meeting=_meeting(), one_offs=one_offs, start=_utc(2026, 1, 5), end=_utc(2026, 1, 15)
    )
    assert [(s.day, s.start, s.one_off) for s in sessions] == [
        (date(2026, 1, 8), _utc(2026, 1, 8, 8), True),
        (date(2026, 1, 8), _utc(2026, 1, 8, 17), False),
        (date(2026, 1, 10), _utc(2026, 1, 10, 9), True),
    ]
    assert sessions[0].place == "Room 101" and sessions[0].end == _utc(2026, 1, 8, 9, 30)
    assert sessions[2].place == "Lab" and sessions[2].end == _utc(2026, 1, 10, 12)
    assert len({s.key for s in sessions}) == 3  # one-off and series session of 8 Jan differ
    assert next_session(meeting=_meeting(), one_offs=one_offs, now=_utc(2026, 1, 5)) == sessions[0]


@pytest.mark.parametrize(
    ("zone", "before", "after"),
    [
        # Berlin: CET (+1) until Sun 29 Mar 2026, CEST (+2) until Sun 25 Oct 2026.
        ("Europe/Berlin", _utc(2026, 3, 26, 17), _utc(2026, 4, 2, 16)),
        ("Europe/Berlin", _utc(2026, 10, 22, 16), _utc(2026, 10, 29, 17)),
        # New York: EST (-5) until Sun 8 Mar 2026, EDT (-4) until Sun 1 Nov 2026.
        ("America/New_York", _utc(2026, 3, 5, 23), _utc(2026, 3, 12, 22)),
        ("America/New_York", _utc(2026, 10, 29, 22), _utc(2026, 11, 5, 23)),
        # Lord Howe: +11 until Sun 5 Apr 2026, +10:30 until Sun 4 Oct 2026, +11 again.
        ("Australia/Lord_Howe", _utc(2026, 4, 2, 7), _utc(2026, 4, 9, 7, 30)),
        ("Australia/Lord_Howe", _utc(2026, 10, 1, 7, 30), _utc(2026, 10, 8, 7)),
    ],
)
def test_a_thursday_at_18_stays_at_18_local_across_each_change(
    zone: str, before: datetime, after: datetime
) -> None:
    meeting = _meeting(zone=zone)
    sessions = sessions_between(meeting=meeting, start=before - HOUR, end=after + HOUR)
    assert _starts(sessions) == [before, after]
    assert all(s.local_start.time() == time(18, 0) for s in sessions)
    assert next_session(meeting=meeting, now=before + HOUR) == sessions[1]


@pytest.mark.parametrize(
    ("zone", "at", "day", "expected", "local"),
    [
        # 02:00 -> 03:00: 02:30 is 03:30, on summer time.
        ("Europe/Berlin", time(2, 30), date(2026, 3, 29), _utc(2026, 3, 29, 1, 30), time(3, 30)),
        ("America/New_York", time(2, 30), date(2026, 3, 8), _utc(2026, 3, 8, 7, 30), time(3, 30)),
        # 02:00 -> 02:30: 02:15 is 02:45 (the gap is half an hour).
        (
            "Australia/Lord_Howe",
            time(2, 15),
            date(2026, 10, 4),
            _utc(2026, 10, 3, 15, 45),
            time(2, 45),
        ),
    ],
)
def test_a_time_the_spring_skips_moves_forward_by_the_gap(
    zone: str, at: time, day: date, expected: datetime, local: time
) -> None:
    meeting = _meeting(zone=zone, weekday=7, start=at, first_date=day)
    sessions = sessions_between(meeting=meeting, start=_utc(2026, 1, 1), end=_utc(2027, 1, 1))
    changed = sessions[0]
    assert changed.day == day and changed.start == expected
    assert changed.local_start.time() == local and changed.local_start.date() == day
    assert changed.end == expected + timedelta(minutes=90)
    # The week after, the time exists again and the session is back on it.
    assert sessions[1].local_start.time() == at


@pytest.mark.parametrize(
    ("zone", "at", "day", "first", "second"),
    [
        # 03:00 -> 02:00: 02:30 happens at 00:30 UTC (summer time) and again at 01:30 UTC.
        (
            "Europe/Berlin",
            time(2, 30),
            date(2026, 10, 25),
            _utc(2026, 10, 25, 0, 30),
            _utc(2026, 10, 25, 1, 30),
        ),
        (
            "America/New_York",
            time(1, 30),
            date(2026, 11, 1),
            _utc(2026, 11, 1, 5, 30),
            _utc(2026, 11, 1, 6, 30),
        ),
        # 02:00 -> 01:30: 01:45 happens on +11, then on +10:30.
        (
            "Australia/Lord_Howe",
            time(1, 45),
            date(2026, 4, 5),
            _utc(2026, 4, 4, 14, 45),
            _utc(2026, 4, 4, 15, 15),
        ),
    ],
)
def test_a_time_the_autumn_repeats_is_its_first_occurrence(
    zone: str, at: time, day: date, first: datetime, second: datetime
) -> None:
    meeting = _meeting(zone=zone, weekday=7, start=at, first_date=day)
    sessions = sessions_between(meeting=meeting, start=first - HOUR, end=second + HOUR)
    assert _starts(sessions) == [first]
    assert sessions[0].local_start.time() == at and sessions[0].local_start.fold == 0
    # Asked from between the two occurrences, the next session is next week's.
    found = next_session(meeting=meeting, now=first + timedelta(minutes=1))
    assert found is not None and found.day == day + timedelta(days=7)


def test_a_session_day_the_zone_skipped_happens_the_day_after() -> None:
    # Samoa crossed the date line: Friday 30 Dec 2011 never happened in Apia. The 18:00 of
    # that day, forward by the gap (a whole day), is 18:00 on Saturday 31 Dec.
    meeting = _meeting(zone="Pacific/Apia", weekday=5, first_date=date(2011, 12, 23))
    sessions = sessions_between(meeting=meeting, start=_utc(2011, 12, 20), end=_utc(2012, 1, 10))
    assert [(s.day, s.start) for s in sessions] == [
        (date(2011, 12, 23), _utc(2011, 12, 24, 4)),
        (date(2011, 12, 30), _utc(2011, 12, 31, 4)),
        (date(2012, 1, 6), _utc(2012, 1, 6, 4)),
    ]
    assert sessions[1].local_start.date() == date(2011, 12, 31)


def test_a_session_across_a_change_lasts_its_duration_in_elapsed_time() -> None:
    # Saturday 24 Oct 2026, 23:00 Berlin for four hours: the clocks fall back at 03:00.
    meeting = _meeting(weekday=6, start=time(23, 0), duration=timedelta(hours=4))
    (session,) = sessions_between(meeting=meeting, start=_utc(2026, 10, 24), end=_utc(2026, 10, 25))
    assert session.start == _utc(2026, 10, 24, 21) and session.end == _utc(2026, 10, 25, 1)
    assert session.end.astimezone(ZoneInfo("Europe/Berlin")).time() == time(2, 0)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"weekday": 0}, "weekday"),
        ({"weekday": 8}, "weekday"),
        ({"every_weeks": 0}, "every_weeks"),
        ({"duration": timedelta(0)}, "lasts"),
        ({"until": date(2025, 12, 31)}, "until"),
        ({"zone": "Mars/Olympus_Mons"}, "IANA"),
        ({"zone": "America/Argentina"}, "IANA"),  # a folder of zones, not a zone
        ({"zone": "../../etc/passwd"}, "IANA"),
        ({"start": time(18, 0, tzinfo=UTC)}, "no zone"),
    ],
)
def test_a_meeting_that_names_no_sessions_is_refused(
    changes: dict[str, object], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        _meeting(**changes)


def test_naive_windows_and_wall_times_with_zones_are_refused() -> None:
    with pytest.raises(ValueError, match="aware"):
        sessions_between(meeting=_meeting(), start=datetime(2026, 1, 1), end=_utc(2026, 2, 1))
    with pytest.raises(ValueError, match="aware"):
        next_session(meeting=_meeting(), now=datetime(2026, 1, 1))
    with pytest.raises(ValueError, match="no zone"):
        Move(day=date(2026, 1, 8), to_day=date(2026, 1, 9), to_time=time(9, tzinfo=UTC))
    with pytest.raises(ValueError, match="lasts"):
        OneOff(day=date(2026, 1, 9), at=time(9), duration=-HOUR)


def test_a_window_given_in_another_zone_means_the_same_instants() -> None:
    tokyo = ZoneInfo("Asia/Tokyo")
    start, end = _utc(2026, 3, 1), _utc(2026, 5, 1)
    assert sessions_between(
        meeting=_meeting(), start=start.astimezone(tokyo), end=end.astimezone(tokyo)
    ) == sessions_between(meeting=_meeting(), start=start, end=end)
