"""What the meetings storage tests share: a weekly meeting in Berlin, its reminders, its
sessions, and a span holding them all."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

from bot.meetings.meeting import Meeting, Session, local_instant
from bot.meetings.reminders import Before
from tests.db.sources_data import DAY, HOSTILE

BERLIN = "Europe/Berlin"
WEEKLY = Meeting(
    weekday=DAY.isoweekday(),
    start=time(18, 0),
    zone=BERLIN,
    first_date=DAY,
    duration=timedelta(minutes=90),
    place=HOSTILE,
)
REMINDERS = (Before(minutes=30), Before(days=1))
LONG_AGO = datetime(2026, 1, 1, tzinfo=UTC)
FAR_AHEAD = datetime(2030, 1, 1, tzinfo=UTC)


def session_on(day: date, *, one_off: bool = False, at: time = time(18, 0)) -> Session:
    """The 90-minute session of `day` at Berlin's `at`, in a room of hostile text."""
    start = local_instant(day=day, at=at, zone=BERLIN)
    return Session(
        day=day,
        start=start,
        end=start + timedelta(minutes=90),
        zone=BERLIN,
        place=HOSTILE,
        one_off=one_off,
    )
