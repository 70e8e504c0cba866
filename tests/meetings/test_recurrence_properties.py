"""Properties of a channel's calendar over random meetings, windows, skips, moves and
one-offs: each session at its wall time (or forward by a gap), none missing, strictly in
order, and next_session agreeing with sessions_between.

The series' dates are found here by walking every day from the first date, not by the
arithmetic under test. Every zone drawn has offsets in whole half hours from 2000 on, and
each kind of session gets its own minute (modulo 30), so no two sessions can share an
instant and the order must be strict.
"""

from __future__ import annotations

import itertools
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.meetings.meeting import Meeting, Move, OneOff, Session, Skip
from bot.meetings.recurrence import next_session, sessions_between

# No example database: it would be one more folder in the work tree, and runs stay
# reproducible from the printed seed.
FAST = settings(max_examples=200, deadline=None, database=None)
ZONES = (
    "UTC",
    "Europe/Berlin",
    "America/New_York",
    "Australia/Lord_Howe",  # a 30-minute change
    "America/Santiago",  # changes at midnight, so a 00:xx time can fall in the gap
    "Asia/Kolkata",  # +05:30, no DST
)
DAYS = st.dates(min_value=date(2001, 1, 1), max_value=date(2039, 1, 1))
# Wall clocks that skip or repeat an hour (half an hour on Lord Howe) on a day, and that hour,
# drawn often enough that the gap and the double are met in every run.
CHANGES = (
    ("Europe/Berlin", date(2026, 3, 29), 2),
    ("Europe/Berlin", date(2026, 10, 25), 2),
    ("America/New_York", date(2026, 3, 8), 2),
    ("America/New_York", date(2026, 11, 1), 1),
    ("Australia/Lord_Howe", date(2026, 10, 4), 2),
    ("Australia/Lord_Howe", date(2026, 4, 5), 1),
    ("America/Santiago", date(2026, 9, 6), 0),
    ("America/Santiago", date(2026, 4, 4), 23),
)


def _exists(*, naive: datetime, zone: ZoneInfo) -> bool:
    """Whether some instant shows this wall time in the zone (either fold)."""
    return any(
        naive.replace(tzinfo=zone, fold=fold).astimezone(UTC).astimezone(zone).replace(tzinfo=None)
        == naive
        for fold in (0, 1)
    )


def _series(*, meeting: Meeting, through: date) -> list[date]:
    """The series' dates up to `through`, by walking the calendar a day at a time."""
    found: list[date] = []
    day = meeting.first_date
    while day <= through and (meeting.until is None or day <= meeting.until):
        weeks = (day - found[0]).days // 7 if found else 0
        if day.isoweekday() == meeting.weekday and weeks % meeting.every_weeks == 0:
            found.append(day)
        day += timedelta(days=1)
    return found


def _check_wall_time(*, session: Session, day: date, at: time) -> None:
    """The session shows `at` on `day`, or, where that wall time does not exist, a time up to
    the gap later; a doubled wall time is its first occurrence."""
    zone = ZoneInfo(session.zone)
    local = session.local_start
    naive = datetime.combine(day, at)
    if _exists(naive=naive, zone=zone):
        assert local.replace(tzinfo=None) == naive and local.fold == 0
    else:
        assert timedelta(0) < local.replace(tzinfo=None) - naive <= timedelta(hours=1)


@st.composite
def calendars(draw: st.DrawFn) -> tuple[Meeting, list[Skip | Move], list[OneOff], datetime]:
    """A meeting, exceptions on its dates, one-offs, and a window start near its dates."""
    minute = draw(st.integers(min_value=0, max_value=29))
    lasts = draw(st.none() | st.integers(min_value=0, max_value=300))
    if draw(st.booleans()):  # a series starting on a change day, at the hour it changes
        zone, first, hour = draw(st.sampled_from(CHANGES))
        weekday = first.isoweekday()
    else:
        zone, first = draw(st.sampled_from(ZONES)), draw(DAYS)
        hour, weekday = draw(st.integers(0, 23)), draw(st.integers(min_value=1, max_value=7))
    meeting = Meeting(
        weekday=weekday,
        start=time(hour, minute),
        zone=zone,
        first_date=first,
        duration=timedelta(minutes=draw(st.integers(min_value=1, max_value=600))),
        every_weeks=draw(st.integers(min_value=1, max_value=4)),
        until=None if lasts is None else first + timedelta(days=lasts),
    )
    dates = _series(meeting=meeting, through=first + timedelta(days=400))
    picked = draw(st.lists(st.sampled_from(dates), max_size=6, unique=True)) if dates else []
    exceptions: list[Skip | Move] = []
    for n, day in enumerate(picked):
        if draw(st.booleans()):
            exceptions.append(Skip(day=day))
        else:
            shift = timedelta(days=draw(st.integers(min_value=-30, max_value=30)))
            at = time(draw(st.integers(min_value=0, max_value=23)), (minute + 1 + n) % 30)
            exceptions.append(Move(day=day, to_day=day + shift, to_time=at))
    offsets = draw(st.lists(st.integers(min_value=-20, max_value=400), max_size=4, unique=True))
    one_offs = [
        OneOff(
            day=first + timedelta(days=offset),
            at=time(draw(st.integers(min_value=0, max_value=23)), (minute + 10 + n) % 30),
        )
        for n, offset in enumerate(offsets)
    ]
    start = datetime.combine(
        first + timedelta(days=draw(st.integers(-3, 0) | st.integers(-40, 300))),
        time(draw(st.integers(min_value=0, max_value=23))),
        tzinfo=UTC,
    )
    return meeting, exceptions, one_offs, start


def _instant(*, day: date, at: time, zone: str) -> datetime:
    """The stdlib's reading of a wall time (fold=0), which _check_wall_time pins down."""
    return datetime.combine(day, at, tzinfo=ZoneInfo(zone)).astimezone(UTC)


def _expected(
    *, meeting: Meeting, exceptions: list[Skip | Move], one_offs: list[OneOff]
) -> list[tuple[tuple[bool, date], datetime]]:
    """Every session's key and start over the drawn calendar's span, in time order."""
    changes = {e.day: e for e in exceptions}
    placed: list[tuple[tuple[bool, date], datetime]] = []
    for day in _series(meeting=meeting, through=meeting.first_date + timedelta(days=800)):
        change = changes.get(day)
        if change is None:
            placed.append(((False, day), _instant(day=day, at=meeting.start, zone=meeting.zone)))
        elif isinstance(change, Move):
            at = _instant(day=change.to_day, at=change.to_time, zone=meeting.zone)
            placed.append(((False, day), at))
    placed += [((True, o.day), _instant(day=o.day, at=o.at, zone=meeting.zone)) for o in one_offs]
    return sorted(placed, key=lambda item: item[1])


@FAST
@given(calendar=calendars(), days=st.integers(min_value=1, max_value=120))
def test_every_session_is_at_its_wall_time_none_missing_strictly_in_order(
    calendar: tuple[Meeting, list[Skip | Move], list[OneOff], datetime], days: int
) -> None:
    meeting, exceptions, one_offs, start = calendar
    end = start + timedelta(days=days)
    sessions = sessions_between(
        meeting=meeting, exceptions=exceptions, one_offs=one_offs, start=start, end=end
    )
    starts = [s.start for s in sessions]
    assert all(a < b for a, b in itertools.pairwise(starts))
    assert all(start <= at < end for at in starts)
    changes = {e.day: e for e in exceptions}
    singles = {o.day: o for o in one_offs}
    # A session moved into the window may belong to a date up to 30 days after it.
    series = _series(meeting=meeting, through=end.date() + timedelta(days=40))
    for session in sessions:
        if session.one_off:
            single = singles[session.day]
            _check_wall_time(session=session, day=single.day, at=single.at)
            assert not session.moved and session.end - session.start == meeting.duration
            continue
        assert session.day in series and session.end - session.start == meeting.duration
        move = changes.get(session.day)
        assert session.moved == isinstance(move, Move)
        if isinstance(move, Move):
            _check_wall_time(session=session, day=move.to_day, at=move.to_time)
        else:
            assert move is None  # a skipped date shows no session
            _check_wall_time(session=session, day=session.day, at=meeting.start)
    expected = _expected(meeting=meeting, exceptions=exceptions, one_offs=one_offs)
    assert [s.key for s in sessions if start <= s.start < end] == [
        key for key, at in expected if start <= at < end
    ]


@FAST
@given(calendar=calendars())
def test_next_session_is_the_first_of_those_to_come(
    calendar: tuple[Meeting, list[Skip | Move], list[OneOff], datetime],
) -> None:
    meeting, exceptions, one_offs, now = calendar
    # Three years hold every session these calendars put after `now`, and the series' next.
    ahead = sessions_between(
        meeting=meeting,
        exceptions=exceptions,
        one_offs=one_offs,
        start=now,
        end=now + timedelta(days=3 * 366),
    )
    found = next_session(meeting=meeting, exceptions=exceptions, one_offs=one_offs, now=now)
    assert found == (ahead[0] if ahead else None)
