"""Schedule arithmetic: when a post is due on the channel's wall clock, when the next one goes
out, and how replies name it."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest

from bot.domain import Schedule
from bot.services.schedule import describe_when, is_due, local_now, next_post_at
from tests.services.conftest import WEEKDAYS
from tests.services.support import MONDAY

BERLIN = ZoneInfo("Europe/Berlin")
SUNDAYS = Schedule(post_time=time(23, 30), timezone="Pacific/Auckland", weekdays=frozenset({7}))


def test_local_now_is_the_channels_wall_clock() -> None:
    assert local_now(schedule=WEEKDAYS, now=MONDAY) == datetime(2026, 1, 5, 9, 0, tzinfo=BERLIN)
    assert local_now(schedule=WEEKDAYS, now=MONDAY).utcoffset() == timedelta(hours=1)


def test_due_from_post_time_on_posting_days_only() -> None:
    assert is_due(schedule=WEEKDAYS, now=MONDAY - timedelta(seconds=1)) is None
    assert is_due(schedule=WEEKDAYS, now=MONDAY) == date(2026, 1, 5)
    assert is_due(schedule=WEEKDAYS, now=MONDAY + timedelta(hours=14, minutes=59)) == date(
        2026, 1, 5
    )
    assert is_due(schedule=WEEKDAYS, now=MONDAY + timedelta(hours=15)) is None  # Tue 00:00, early
    assert is_due(schedule=WEEKDAYS, now=MONDAY - timedelta(days=1)) is None  # Sunday


def test_due_is_the_channels_local_date_not_utcs() -> None:
    # Sunday 23:30 in Auckland is Sunday 10:30 UTC; Monday 00:10 there is still Sunday in UTC.
    sunday = datetime(2026, 1, 4, 10, 30, tzinfo=UTC)
    assert is_due(schedule=SUNDAYS, now=sunday) == date(2026, 1, 4)
    assert is_due(schedule=SUNDAYS, now=sunday + timedelta(minutes=40)) is None


def test_next_post_today_tomorrow_or_after_the_weekend() -> None:
    early = next_post_at(schedule=WEEKDAYS, now=MONDAY - timedelta(hours=1), posted_today=False)
    assert early == datetime(2026, 1, 5, 9, 0, tzinfo=BERLIN)
    late = MONDAY + timedelta(hours=3)
    assert next_post_at(schedule=WEEKDAYS, now=late, posted_today=False) == late  # due now
    assert next_post_at(schedule=WEEKDAYS, now=late, posted_today=True) == datetime(
        2026, 1, 6, 9, 0, tzinfo=BERLIN
    )
    saturday = MONDAY + timedelta(days=5)
    assert next_post_at(schedule=WEEKDAYS, now=saturday, posted_today=False).date() == date(
        2026, 1, 12
    )


def test_a_once_a_week_schedule_already_posted_waits_a_week() -> None:
    sunday = datetime(2026, 1, 4, 11, 0, tzinfo=UTC)
    nxt = next_post_at(schedule=SUNDAYS, now=sunday, posted_today=True)
    assert nxt.date() == date(2026, 1, 11) and nxt.time() == time(23, 30)


def test_a_schedule_without_days_is_refused() -> None:
    never = Schedule(post_time=time(9, 0), timezone="UTC", weekdays=frozenset())
    with pytest.raises(ValueError, match="at least one weekday"):
        next_post_at(schedule=never, now=MONDAY, posted_today=False)


@pytest.mark.parametrize(
    ("at", "said"),
    [
        (datetime(2026, 1, 5, 9, 0, tzinfo=BERLIN), "today at 09:00"),
        (datetime(2026, 1, 6, 7, 5, tzinfo=BERLIN), "tomorrow at 07:05"),
        (datetime(2026, 1, 12, 9, 0, tzinfo=BERLIN), "Mon 12 Jan at 09:00"),
    ],
)
def test_describe_when(at: datetime, said: str) -> None:
    assert describe_when(at=at, now=MONDAY) == said


def test_describe_when_counts_days_on_the_local_calendar() -> None:
    # 23:30 UTC on Monday is already Tuesday in Berlin: "today" there, not "tomorrow".
    now = datetime(2026, 1, 5, 23, 30, tzinfo=UTC)
    at = datetime(2026, 1, 6, 9, 0, tzinfo=BERLIN)
    assert describe_when(at=at, now=now) == "today at 09:00"
