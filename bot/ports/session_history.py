"""The Store's part for the club's memory of its meetings (issue 33): each session as it was
kept, with its poll, its chosen paper, its presenter and its RSVPs, read at once for many
sessions (the export, the web archive's sessions page).

Read only; the roles that write these are ports.meetings, ports.polls and ports.presenters.
Its ratings and links (ports.session_memory) are read with it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from bot.domain import ChannelKey, WorkspaceKey
from bot.meetings.ballots import Rsvp
from bot.ports.meetings import SessionRecord
from bot.ports.polls import PollMode
from bot.ports.presenters import Presenter
from bot.ports.session_memory import Rating


@dataclass(frozen=True, slots=True)
class SlatePaper:
    """A paper on a poll's slate: its nomination, the paper and its title, and its votes as
    the poll closed (None: still open, or closed before tallies were kept)."""

    nomination: int
    paper_id: int
    title: str
    votes: float | None = None


@dataclass(frozen=True, slots=True)
class PollHistory:
    """A session's poll: its mode as it closed (None: still open, or not kept), its slate in
    the order shown (a nomination since deleted with its paper is left out), and its winner
    (None: open, or nobody voted)."""

    opened_at: datetime
    closed_at: datetime | None
    mode: PollMode | None
    slate: tuple[SlatePaper, ...]
    winner: SlatePaper | None


@dataclass(frozen=True, slots=True)
class SessionHistory:
    """A session with what happened around it. `private`: its channel is private. `rsvps`:
    each member's answer, by user id in order."""

    record: SessionRecord
    private: bool
    poll: PollHistory | None
    presenter: Presenter | None
    rsvps: tuple[tuple[str, Rsvp], ...]
    # Each member's rating after it (by user id, in order) and the links added, oldest first.
    ratings: tuple[tuple[str, Rating], ...] = ()
    links: tuple[str, ...] = ()

    @property
    def paper(self) -> SlatePaper | None:
        """The session's paper: the one its poll chose."""
        return self.poll.winner if self.poll is not None else None


class SessionHistoryStore(Protocol):
    """Sessions with their polls, presenters and RSVPs, many at once."""

    def session_history(
        self,
        *,
        workspace: WorkspaceKey,
        channel: ChannelKey | None,
        since: datetime | None,
        until: datetime | None,
    ) -> list[SessionHistory]:
        """The workspace's sessions (or one channel's) starting in [since, until) (None: no
        bound), cancelled ones too, earliest first (by id among equals)."""
        ...
