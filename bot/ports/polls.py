"""The Store's part for the poll that chooses a session's paper (issue 33): a channel's poll
settings, its nominations, its members' ballots, and each session's poll.

Ballots belong to the channel, not to one poll: a member's last ballot stands, and a poll
counts only the choices that name its own slate (meetings.ballots.valid_choices), so the
votes of the nominations that lost carry over to the next poll until the member votes again
(meetings.polls.carried_over's rule, with nothing to copy). A nomination chosen by a poll is
done: it joins no later slate.

A session's poll is opened once (its slate frozen then) and closed once (a conditional
update: two processes closing it at once choose one winner); its messages go out once as the
session's notices ("poll", "poll-result": bot/services/notices_once.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal, Protocol

from bot.domain import ChannelKey
from bot.meetings.ballots import Ballot
from bot.meetings.reminders import Before

PollMode = Literal["approval", "ranked"]
# A poll's window unless a channel says otherwise: it opens three days before its session
# and closes one day before.
OPENS = Before(days=3)
CLOSES = Before(days=1)


@dataclass(frozen=True, slots=True)
class PollSettings:
    """How a channel's polls run: approval or ranked choice; `hidden` keeps the counts until
    it closes; `weighted` weighs each ballot by its voter's RSVP; it opens `opens` and closes
    `closes` before the session; its slate takes the first `slate` papers of the queue beside
    the members' nominations."""

    mode: PollMode = "approval"
    hidden: bool = False
    weighted: bool = False
    opens: Before = OPENS
    closes: Before = CLOSES
    slate: int = 3


@dataclass(frozen=True, slots=True)
class NominationRecord:
    """A paper put forward in a channel. `nominated_by` is "" for one the queue put forward;
    `chosen_for` the session whose poll chose it (None while it waits)."""

    id: int
    channel: ChannelKey
    paper_id: int
    title: str
    nominated_by: str
    nominated_at: datetime
    chosen_for: int | None = None


@dataclass(frozen=True, slots=True)
class Tally:
    """A poll's counts as it closed, kept for the club's memory (ballots carry over and
    change after): its mode, and each nomination's votes in finishing order (a ranked poll's:
    in the last round it stood in). Votes are weights summed, multiples of ½: exact floats."""

    mode: PollMode
    counts: tuple[tuple[int, float], ...]


@dataclass(frozen=True, slots=True)
class SessionPoll:
    """A session's poll: its slate (nomination ids, in the order shown), and once closed its
    winner (None: nobody voted), when, and its tally then (None: closed before tallies were
    kept, or still open)."""

    session_id: int
    slate: tuple[int, ...]
    opened_at: datetime
    closed_at: datetime | None = None
    winner: int | None = None
    tally: Tally | None = None


class PollsStore(Protocol):
    """A channel's poll settings, nominations and ballots, and each session's poll."""

    def poll_settings(self, *, channel: ChannelKey) -> PollSettings | None:
        """The channel's poll settings; None when its sessions have no poll."""
        ...

    def save_poll_settings(self, *, channel: ChannelKey, settings: PollSettings | None) -> None:
        """Set (None: turn off) the channel's polls; the channel row made when missing."""
        ...

    def nominate(
        self, *, channel: ChannelKey, paper_id: int, user: str, now: datetime
    ) -> tuple[NominationRecord, bool]:
        """Put a paper forward in the channel: its nomination, and whether it is new (a paper
        nominated before, chosen or not, keeps its one nomination)."""
        ...

    def nominations(
        self, *, channel: ChannelKey, ids: Sequence[int] | None
    ) -> list[NominationRecord]:
        """The channel's nominations with these ids (None: those waiting, not chosen), oldest
        first, each with its paper's title."""
        ...

    def cast_ballot(
        self, *, channel: ChannelKey, voter: str, choices: Sequence[int], now: datetime
    ) -> None:
        """A member's ballot (nomination ids in order; none: withdrawn), replacing theirs."""
        ...

    def ballots(self, *, channel: ChannelKey) -> list[Ballot]:
        """Each member's standing ballot in the channel, in the order they were cast."""
        ...

    def session_poll(self, *, session_id: int) -> SessionPoll | None:
        """A session's poll, None before it opened."""
        ...

    def open_poll(self, *, session_id: int, slate: Sequence[int], now: datetime) -> bool:
        """Open a session's poll with its slate; False when it was opened before."""
        ...

    def close_poll(
        self, *, session_id: int, winner: int | None, now: datetime, tally: Tally | None = None
    ) -> bool:
        """Close a session's poll with its winner (marked chosen for the session) and its
        tally, if still open; whether this call closed it."""
        ...

    def release_choice(self, *, session_id: int) -> bool:
        """The paper a cancelled session's poll chose stands in later polls again; whether it
        was held for that session."""
        ...

    def chosen_paper(self, *, session_id: int) -> int | None:
        """The paper the session's poll chose, if any."""
        ...
