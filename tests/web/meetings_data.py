"""Meetings on the seeded archive (tests.web.archive_data): a weekly one in the public channel
with a hostile place, one in the private channel and one in the other workspace, each channel
named as the bot learns names; and a clock the test moves."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

from bot.db.database import Database
from bot.domain import ChannelKey, WorkspaceKey
from bot.meetings.meeting import Meeting
from bot.ports.names import CHANNEL

T1 = WorkspaceKey(platform="slack", id="T1")
T2 = WorkspaceKey(platform="slack", id="T2")
PUBLIC = ChannelKey(platform="slack", workspace="T1", channel="CPUB")
PRIVATE = ChannelKey(platform="slack", workspace="T1", channel="CPRIV")
OTHER = ChannelKey(platform="slack", workspace="T2", channel="COTHER")
PUBLIC_NAME, PRIVATE_NAME = "journal-club", "secret-club"
# Monday 30 November 2026 (the seed's today), noon UTC.
START = datetime(2026, 11, 30, 12, tzinfo=UTC)
_HEAD = "<!channel> @everyone <@U1> <script>alert(1)</script> *bold* 🧪🎉 a;b,c\\d"
_TAIL = "\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nUID:evil@example\r\nSUMMARY:forged\r\n"
# Mentions, markup, emoji, the feed's own separators, and a CRLF that would start an event:
# 10,000 characters in all.
HOSTILE = _HEAD + _TAIL + "x" * (10_000 - len(_HEAD) - len(_TAIL))
PRIVATE_PLACE = "The private channel's room"
OTHER_PLACE = "The other workspace's room"


def weekly(*, place: str) -> Meeting:
    """Thursdays at 16:00 in Berlin for 90 minutes, since October 2026."""
    return Meeting(
        weekday=4,
        start=time(16),
        zone="Europe/Berlin",
        first_date=date(2026, 10, 1),
        duration=timedelta(minutes=90),
        place=place,
    )


def add_meetings(*, database: Database) -> None:
    """The three channels' meetings, and the names of T1's channels."""
    with database() as store:
        for channel, place in ((PUBLIC, HOSTILE), (PRIVATE, PRIVATE_PLACE), (OTHER, OTHER_PLACE)):
            meeting = weekly(place=place)
            store.save_meeting(channel=channel, meeting=meeting, reminders=(), now=START)
        store.record_names(
            workspace=T1,
            kind=CHANNEL,
            names={PUBLIC.channel: PUBLIC_NAME, PRIVATE.channel: PRIVATE_NAME},
            now=START,
        )


class Clock:
    """A clock the test moves (bot.ports.Clock)."""

    def __init__(self) -> None:
        """Start at START."""
        self.at = START

    def now(self) -> datetime:
        """The time now."""
        return self.at
