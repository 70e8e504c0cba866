"""The meetings scenario (issue 33) on any platform: eight simulated weeks of a weekly meeting
in Berlin, set, skipped and moved by an admin's commands, its reminders sent by the real sweep
on a moving clock, RSVPs by button and by command, and the calendar feed read back.

The weeks run from Friday 27 February to Sunday 26 April 2026. The meeting is every Monday at
18:00 Europe/Berlin for 90 minutes, with the default reminders (a day and half an hour ahead).
Berlin's clocks go forward on Sunday 29 March: the sessions move from 17:00 to 16:00 UTC. The
session of Monday 30 March is moved to Sunday 29 March 18:00 (the change's own day: its
day-ahead reminder is Saturday 18:00 on winter time, 23 hours ahead), and Easter Monday (6
April) is skipped. The place is hostile: mentions, markup, emoji and 10,000 characters, cut by
the bot to PLACE_LIMIT and shown as typed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import Protocol

import icalendar

from bot.db.database import Database
from bot.domain import ChannelKey
from bot.meetings.meeting_text import PLACE_LIMIT
from bot.runtime.wiring import Wiring
from bot.services import calendar_feed
from tests.slack.conftest import FakeClock

SET_AT = datetime(2026, 2, 27, 10, 0, tzinfo=UTC)  # a Friday: the admin sets the meeting up
CHANGED_AT = datetime(2026, 3, 10, 10, 0, tzinfo=UTC)  # a Tuesday: the skip and the move
END = datetime(2026, 4, 26, 12, 0, tzinfo=UTC)  # Sunday, before the next day-ahead reminder
SKIPPED = date(2026, 4, 6)  # Easter Monday
MOVED, MOVED_TO = date(2026, 3, 30), date(2026, 3, 29)  # to Sunday, the day clocks go forward
SERIES = tuple(date(2026, 3, 2) + timedelta(weeks=n) for n in range(8))  # Mondays 2 Mar..20 Apr
# The place as typed: every mark a chat could act on, emoji, and 10,000 characters in all.
MARKS = "Room 2 <!channel> @everyone @here <@U0ADMIN> <@123456789012345678> **bold** _it_"
MARKS += " `code` ~x~ [x](https://evil.example) <https://evil.example|click> &amp; 🚀 👩‍🔬"
HOSTILE_PLACE = (MARKS + " " + "long " * 2_000)[:10_000].strip()
SHOWN_PLACE = HOSTILE_PLACE[:PLACE_LIMIT]  # what the bot keeps (meeting_text.PLACE_LIMIT)
SET_UP = "meeting set mon 18:00 Europe/Berlin for 90m at " + HOSTILE_PLACE
CHANGES = (
    f"meeting skip {SKIPPED.isoformat()}",
    f"meeting move {MOVED.isoformat()} to {MOVED_TO.isoformat()} 18:00",
)


def _utc(month: int, day: int, hour: int, minute: int = 0) -> datetime:
    """An instant of 2026 in UTC."""
    return datetime(2026, month, day, hour, minute, tzinfo=UTC)


# Every reminder and the instant it is due, written out (not computed by the code under test):
# winter sessions start at 17:00 UTC, summer ones at 16:00 UTC.
EXPECTED = (
    _utc(3, 1, 17),
    _utc(3, 2, 16, 30),
    _utc(3, 8, 17),
    _utc(3, 9, 16, 30),
    _utc(3, 15, 17),
    _utc(3, 16, 16, 30),
    _utc(3, 22, 17),
    _utc(3, 23, 16, 30),
    _utc(3, 28, 17),  # Saturday 18:00 CET: 23 hours before the moved session
    _utc(3, 29, 15, 30),  # the moved session, Sunday 18:00 CEST = 16:00 UTC
    _utc(4, 12, 16),
    _utc(4, 13, 15, 30),
    _utc(4, 19, 16),
    _utc(4, 20, 15, 30),
)
MOVED_START = _utc(3, 29, 16)
RSVP_AT = _utc(3, 28, 18)  # an hour after the moved session's day-ahead reminder


class RunningBot(Protocol):
    """One platform's bot as a scenario drives it: its wiring, clock, archive and channel."""

    @property
    def wiring(self) -> Wiring: ...

    @property
    def clock(self) -> FakeClock: ...

    @property
    def database(self) -> Database: ...

    @property
    def key(self) -> ChannelKey: ...


class MeetingRoom(RunningBot, Protocol):
    """One platform's bot as the scenario drives it: an admin and a member in the channel,
    and what the platform holds."""

    @property
    def admin(self) -> str:
        """The admin's user id (who types the meeting commands)."""
        ...

    @property
    def member(self) -> str:
        """The member's user id (who clicks; the admin on a one-person console)."""
        ...

    def command(self, text: str, *, member: bool = False) -> str:
        """Run `/paperclub TEXT` as the admin (or the member); the words of the answer."""
        ...

    def reminders(self) -> list[str]:
        """The ids of the reminders the platform holds in the channel, oldest first."""
        ...

    def shown(self, *, message_id: str) -> str:
        """The reminder's words as they stand (after any redraw)."""
        ...

    def rsvp(self, *, message_id: str, action: str) -> str:
        """The member presses the reminder's RSVP button `action` (rsvp_going ...); the
        answer only the member reads."""
        ...

    def redraws(self) -> bool:
        """Whether the platform redraws a reminder in place (a terminal does not)."""
        ...

    def harmful(self, *, message_id: str, typed: str) -> list[str]:
        """What the reminder pings, and `typed` when a member cannot read it as typed."""
        ...


def sweep_instants() -> list[datetime]:
    """When the scenario sweeps: every six hours, and a minute before, at and after every
    reminder's instant; from SET_AT to END."""
    found = {SET_AT + timedelta(hours=6 * n) for n in range(4 * 60)}
    for at in EXPECTED:
        found |= {at - timedelta(minutes=1), at, at + timedelta(minutes=1)}
    return sorted(t for t in found if SET_AT <= t <= END)


@dataclass
class Weeks:
    """The eight weeks on one platform: each reminder the platform received, with the clock's
    time at the sweep that sent it."""

    room: MeetingRoom
    swept_to: datetime = SET_AT - timedelta(seconds=1)
    received: list[tuple[datetime, str]] = field(default_factory=list)

    def run(self, *, until: datetime) -> None:
        """Sweep at each scheduled instant after the last one swept, up to `until`, noting the
        reminders each sweep sent; the clock then stands at `until`."""
        for instant in sweep_instants():
            if not self.swept_to < instant <= until:
                continue
            self.room.clock.at = instant
            self.room.wiring.sweep()
            self.swept_to = instant
            for message_id in self.room.reminders()[len(self.received) :]:
                self.received.append((instant, message_id))
        self.room.clock.at = until


@dataclass(frozen=True)
class Event:
    """One VEVENT of the calendar feed, read back with the icalendar library."""

    uid: str
    sequence: int
    start: datetime
    status: str
    location: str


def calendar_events(*, room: MeetingRoom) -> list[Event]:
    """The channel's feed now (bot/services/calendar_feed), parsed by icalendar."""
    raw = calendar_feed.feed(uow=room.database, channel=room.key, name="Club", now=room.clock.at)
    assert all(len(line) <= 75 for line in raw.split(b"\r\n")), "a line is not folded"
    parsed = icalendar.Calendar.from_ical(raw)
    return [
        Event(
            uid=str(e["UID"]),
            sequence=int(e.get("SEQUENCE", 0)),
            start=e.decoded("DTSTART").astimezone(UTC),
            status=str(e.get("STATUS", "")),
            location=str(e.get("LOCATION", "")),
        )
        for e in parsed.walk("VEVENT")
    ]
