"""The club scenario (issue 33's polls and presenters) on any platform: six weekly sessions in
Berlin, each with a poll that chooses its paper and a presenter from a rotation of three, over
the real sweep on a moving clock.

The meeting is every Monday at 18:00 Europe/Berlin, from 2 March to 6 April 2026 (summer time
from 29 March: 17:00 UTC, then 16:00 UTC). Polls open three days ahead (Friday 18:00 Berlin)
and close a day ahead (Sunday 18:00 Berlin), approval voting for two sessions, then ranked
choice with the counts hidden until each closes. Every instant below is written out, not
computed by the code under test.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import Protocol

from bot.db.database import Database
from bot.domain import ChannelKey
from bot.runtime.wiring import Wiring
from tests.sessions.rooms import ConsoleMeeting, DiscordMeeting, SlackMeeting
from tests.sessions.scenario_support import RunningBot
from tests.slack.conftest import FakeClock


def utc(month: int, day: int, hour: int, minute: int = 0) -> datetime:
    """An instant of 2026 in UTC."""
    return datetime(2026, month, day, hour, minute, tzinfo=UTC)


SET_AT = utc(2, 27, 10)  # Friday: the admin sets the meeting up, members nominate and join
END = utc(4, 6, 12)  # Monday 6 April, before its session (and before the next choice)
SETUP = (
    "meeting set mon 18:00 Europe/Berlin for 90m at Room 2",
    "meeting reminders off",  # the scenario is about polls and presenters
    "pause",  # no daily paper: nominated papers wait in the queue untouched
    "meeting poll approval",
)
SESSIONS = (
    date(2026, 3, 2),
    date(2026, 3, 9),
    date(2026, 3, 16),
    date(2026, 3, 23),
    date(2026, 3, 30),
    date(2026, 4, 6),
)
STARTS = (
    *(utc(3, d, 17) for d in (2, 9, 16, 23)),
    *(utc(m, d, 16) for m, d in ((3, 30), (4, 6))),
)
# Each poll opens Friday 18:00 and closes Sunday 18:00 on Berlin's wall clock; 6 April has no
# poll (every nomination was chosen by then).
OPENS = (utc(2, 27, 17), utc(3, 6, 17), utc(3, 13, 17), utc(3, 20, 17), utc(3, 27, 17))
CLOSES = (utc(3, 1, 17), utc(3, 8, 17), utc(3, 15, 17), utc(3, 22, 17), utc(3, 29, 16))
# The presenter is told the day before, at what is the polls' close on Sunday.
TOLD_BEFORE = (*CLOSES, utc(4, 5, 16))
RANKED = "meeting poll ranked hidden"
RANKED_AT = utc(3, 10, 10)  # Tuesday, between the second poll's close and the third's opening

# The papers, nominated by title (no look-up): the hostile one types every mark a chat could
# act on, emoji and 10,000 characters; the bot keeps a title of its first words.
HOSTILE = (
    "Attention 🚀 👩‍🔬 <!channel> @everyone <@U0ADMIN> <@123456789012345678> **bold** _it_"
    " `code` ~x~ [x](https://evil.example) &amp; " + "long " * 2_000
)[:10_000]
HOSTILE_SHOWN = (
    "Attention 🚀 👩‍🔬 <!channel> @everyone <@U0ADMIN> <@123456789012345678> **bold** _it_"
)
SPARSE = "Sparse attention for long documents"
HEADS = "Retrieval heads in transformers"
EXPERTS = "Mixture of experts routing at scale"
GROKKING = "Grokking modular arithmetic"
# Each poll's winner and its votes, as the result says them.
WINNERS = ((SPARSE, 2), (HEADS, 2), (GROKKING, 2), (EXPERTS, 2), (HOSTILE_SHOWN, 1))

AWAY = "presenters away 2026-03-23"  # the third member, away for 9 and 16 March
AWAY_AT = utc(3, 3, 10)
VOLUNTEER = "present 2026-04-06"  # the member, on Friday 20 March
VOLUNTEER_AT = utc(3, 20, 10)
SWAP = "swap 2026-03-30"  # the member asks the admin (chosen for 30 March) on Tuesday 24th
SWAP_AT = utc(3, 24, 10)
# Who presents each session in the end (0 the admin, 1 the member, 2 the third), and the
# direct messages each gets: told when chosen and the day before (the admin also told of 30
# March by the rotation, before the swap gave it to the member).
PRESENTERS = (0, 1, 0, 2, 1, 0)
DIRECTS = (7, 4, 2)


class HandedOn:
    """What every platform's club hands on from its meeting room."""

    room: ConsoleMeeting | SlackMeeting | DiscordMeeting

    @property
    def wiring(self) -> Wiring:
        return self.room.wiring

    @property
    def clock(self) -> FakeClock:
        return self.room.clock

    @property
    def database(self) -> Database:
        return self.room.database

    @property
    def key(self) -> ChannelKey:
        return self.room.key

    def redraws(self) -> bool:
        """Whether a click redraws the poll in place (a terminal prints, and redraws nothing)."""
        return self.room.redraws()


class ClubRoom(RunningBot, Protocol):
    """One platform's bot with three people in its channel, as the scenario drives it."""

    def redraws(self) -> bool:
        """Whether a click redraws the poll in place (a terminal does not)."""
        ...

    @property
    def people(self) -> tuple[str, str, str]:
        """The admin, the member and the third person's ids."""
        ...

    def say(self, text: str, *, user: str) -> str:
        """`/paperclub TEXT` by that person; the words of the answer."""
        ...

    def polls(self) -> list[str]:
        """The channel's poll messages, oldest first."""
        ...

    def results(self) -> list[str]:
        """The channel's poll results, oldest first."""
        ...

    def shown(self, *, message_id: str, result: bool = False) -> str:
        """A poll (or a result) as it reads now."""
        ...

    def vote(self, *, message_id: str, numbers: tuple[int, ...], user: str) -> str:
        """The person presses the poll's papers' buttons in this order (the console: types
        the command the poll prints); the last answer."""
        ...

    def see_votes(self, *, message_id: str, user: str) -> str:
        """The person presses the result's "See the votes"; the answer."""
        ...

    def accept_swap(self, *, user: str) -> str:
        """The person presses Accept on the last swap asked; the answer."""
        ...

    def directs(self, *, user: str) -> list[str] | None:
        """The direct messages the person received (None: the platform cannot tell apart)."""
        ...

    def all_directs(self) -> list[str]:
        """Every direct message the bot sent."""
        ...

    def harmful(self, *, message_id: str, typed: str, result: bool = False) -> list[str]:
        """What the message pings, and `typed` when a member cannot read it as typed."""
        ...


def sweep_instants() -> list[datetime]:
    """Every twelve hours, and a minute before, at and after every instant something falls
    due (a poll opens or closes, a presenter is chosen or told); from SET_AT to END."""
    found = {SET_AT + timedelta(hours=12 * n) for n in range(90)}
    # A presenter is chosen a week ahead: the 30 March session at 23 March 16:00 UTC.
    for at in (*OPENS, *CLOSES, *TOLD_BEFORE, *STARTS, *(s - timedelta(weeks=1) for s in STARTS)):
        found |= {at - timedelta(minutes=1), at, at + timedelta(minutes=1)}
    return sorted(t for t in found if SET_AT < t <= END)


@dataclass
class Weeks:
    """The weeks on one platform: when each poll and each result appeared (the clock's time
    at the sweep that sent it)."""

    room: ClubRoom
    swept_to: datetime = SET_AT
    polls: list[datetime] = field(default_factory=list)
    results: list[datetime] = field(default_factory=list)

    def run(self, *, until: datetime) -> None:
        """Sweep at each scheduled instant after the last one swept, up to `until`; the clock
        then stands at `until`."""
        for instant in sweep_instants():
            if not self.swept_to < instant <= until:
                continue
            self.room.clock.at = instant
            self.room.wiring.sweep()
            self.swept_to = instant
            self.polls += [instant] * (len(self.room.polls()) - len(self.polls))
            self.results += [instant] * (len(self.room.results()) - len(self.results))
        self.room.clock.at = until
