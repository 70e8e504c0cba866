"""When to remind people of a session, and when its poll opens and closes.

Each is a lead time before the session's start, in two parts (Before): whole days on the
wall clock, then minutes of elapsed time. "1 day before" an 18:00 session is 18:00 the day
before on the meeting's clock, so 23 hours before a session the day after a spring-forward
change and 25 hours before one the day after an autumn change; "30 minutes before" is always
30 minutes. A wall time the day before that does not exist, or happens twice, takes the rule
of meeting.local_instant (forward by the gap; the first occurrence).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.meetings.meeting import Session, local_instant


@dataclass(frozen=True, slots=True)
class Before:
    """A lead time: `days` whole days on the wall clock, then `minutes` of elapsed time (so
    Before(days=1, minutes=60) is an hour before the session's wall time the day before)."""

    days: int = 0
    minutes: int = 0

    def __post_init__(self) -> None:
        """A lead time points back from the session, never past it."""
        if self.days < 0 or self.minutes < 0:
            raise ValueError("a lead time counts back from the session: no negative parts")


# The default reminders: a day ahead, and half an hour ahead.
DEFAULT_OFFSETS = (Before(days=1), Before(minutes=30))


def lead_instant(*, session: Session, before: Before) -> datetime:
    """The UTC instant `before` ahead of the session's start: its local start moved back
    `before.days` days on the meeting's wall clock, then `before.minutes` minutes.

    The local start is the one the session keeps (for a time in a spring gap, the time after
    it), so a reminder never stands at a wall time the session itself does not show.
    """
    local = session.local_start
    back = local_instant(
        day=local.date() - timedelta(days=before.days), at=local.time(), zone=session.zone
    )
    return back - timedelta(minutes=before.minutes)


@dataclass(frozen=True, slots=True)
class Reminder:
    """A reminder of a session: at instant `at` (UTC), `before` its start."""

    at: datetime
    before: Before


def reminders(
    *, session: Session, offsets: Iterable[Before] = DEFAULT_OFFSETS
) -> tuple[Reminder, ...]:
    """One reminder per distinct lead time in `offsets`, earliest first; a reminder already
    past is the caller's to drop, as this knows no clock."""
    made = {before: lead_instant(session=session, before=before) for before in offsets}
    return tuple(
        Reminder(at=at, before=before)
        for before, at in sorted(made.items(), key=lambda item: (item[1], item[0].days))
    )


@dataclass(frozen=True, slots=True)
class PollWindow:
    """When a session's poll takes votes: from `opens` until `closes` (UTC), closes excluded."""

    opens: datetime
    closes: datetime


def poll_window(*, session: Session, opens_before: Before, closes_before: Before) -> PollWindow:
    """The poll's window, each end a lead time before the session (as Before reads); refused
    when it would close before it opens, or at once."""
    window = PollWindow(
        opens=lead_instant(session=session, before=opens_before),
        closes=lead_instant(session=session, before=closes_before),
    )
    if window.closes <= window.opens:
        raise ValueError("a poll closes after it opens: open it further ahead of the session")
    return window
