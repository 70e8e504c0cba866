"""Pure schedule arithmetic: is a channel's post due, and when is the next one."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from bot.domain import Schedule


def local_now(*, schedule: Schedule, now: datetime) -> datetime:
    """The instant `now` on the channel's wall clock."""
    return now.astimezone(ZoneInfo(schedule.timezone))


def is_due(*, schedule: Schedule, now: datetime) -> date | None:
    """The channel's local date when its post is due at `now` (a posting day, past post time).

    Comparing wall-clock times, not firing instants, is what makes DST safe: on a spring-forward
    day 02:30 never happens, but 03:00 is past it, so the post still goes out once.
    """
    local = local_now(schedule=schedule, now=now)
    if local.isoweekday() not in schedule.weekdays:
        return None
    if local.time().replace(tzinfo=None) < schedule.post_time:
        return None
    return local.date()


def next_post_at(*, schedule: Schedule, now: datetime, posted_today: bool) -> datetime:
    """The next local instant a post will go out (for replies such as "next post: Thu 09:00")."""
    zone = ZoneInfo(schedule.timezone)
    local = now.astimezone(zone)
    for offset in range(8):
        day = local.date() + timedelta(days=offset)
        if day.isoweekday() not in schedule.weekdays or (offset == 0 and posted_today):
            continue
        at = datetime.combine(day, schedule.post_time, tzinfo=zone)
        # Today, past post time and not yet posted: it is due now (the sweep posts it).
        return max(at, local) if offset == 0 else at
    raise ValueError("a schedule always has at least one weekday")


def describe_when(*, at: datetime, now: datetime) -> str:
    """Say a local instant briefly: "today at 09:00", "tomorrow at 09:00", "Mon 7 Dec at 09:00"."""
    local_today = now.astimezone(at.tzinfo).date()
    clock = at.strftime("%H:%M")
    if at.date() == local_today:
        return f"today at {clock}"
    if at.date() == local_today + timedelta(days=1):
        return f"tomorrow at {clock}"
    return f"{at.strftime('%a')} {at.day} {at.strftime('%b')} at {clock}"
