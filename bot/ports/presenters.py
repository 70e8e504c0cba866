"""The Store's part for presenters (issue 33): who in a channel opted into the rotation (and
is away until when), who presents each session and how they came to (the rotation, a
volunteer, a swap), and the swaps asked for.

A session's presenter is set once by the rotation (a conditional insert: two processes
choosing at once keep one), and changed after only by a volunteer or an accepted swap. Each is
told once: `told_at` is noted after their direct message.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Literal, Protocol

from bot.domain import ChannelKey

How = Literal["rotation", "volunteer", "swap"]


@dataclass(frozen=True, slots=True)
class RotationMember:
    """A member of a channel's rotation: since when, and the first date they are back when
    away (None: not away)."""

    user: str
    opted_in_at: datetime
    away_until: date | None = None


@dataclass(frozen=True, slots=True)
class Presenter:
    """Who presents a session, and how that was decided; `told_at`: when they were told."""

    session_id: int
    user: str
    how: How
    assigned_at: datetime
    told_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class Swap:
    """A swap asked for: `asked_by` (presenting `their_session`) asks `asked_of` (presenting
    `other_session`) to trade; `decided` once accepted or declined (or gone stale)."""

    id: int
    channel: ChannelKey
    asked_by: str
    asked_of: str
    their_session: int
    other_session: int
    asked_at: datetime
    accepted: bool | None = None


class PresentersStore(Protocol):
    """A channel's rotation, its sessions' presenters and the swaps asked for."""

    def rotation(self, *, channel: ChannelKey) -> list[RotationMember]:
        """The channel's members in the rotation (those who left are not), oldest first."""
        ...

    def join_rotation(self, *, channel: ChannelKey, user: str, now: datetime) -> bool:
        """Opt a member in (back in keeps their first opt-in date); whether they were out."""
        ...

    def leave_rotation(self, *, channel: ChannelKey, user: str) -> bool:
        """Opt a member out; whether they were in."""
        ...

    def set_away(self, *, channel: ChannelKey, user: str, until: date | None) -> bool:
        """A member is away until a date (None: back); whether they are in the rotation."""
        ...

    def presenters(self, *, channel: ChannelKey) -> list[tuple[date, str]]:
        """Every session of the channel with a presenter, past ones included, as (the
        session's local date, the presenter), earliest first: the rotation's memory."""
        ...

    def presenter_of(self, *, session_id: int) -> Presenter | None:
        """A session's presenter, None while nobody is chosen."""
        ...

    def assign_presenter(
        self, *, session_id: int, user: str, how: How, now: datetime, replace: bool
    ) -> bool:
        """Set a session's presenter: only when it has none (`replace` False: the rotation),
        or in place of whoever it has (a volunteer, a swap); whether it was set. A new
        presenter is not told yet."""
        ...

    def presenter_told(self, *, session_id: int, now: datetime) -> None:
        """The session's presenter got their direct message."""
        ...

    def ask_swap(
        self,
        *,
        channel: ChannelKey,
        asked_by: str,
        asked_of: str,
        their_session: int,
        other_session: int,
        now: datetime,
    ) -> int:
        """Note a swap asked for; its number."""
        ...

    def swap(self, *, swap_id: int) -> Swap | None:
        """A swap by its number."""
        ...

    def decide_swap(self, *, swap_id: int, accepted: bool) -> bool:
        """Accept or decline a swap not decided yet (a conditional update); whether this call
        decided it."""
        ...
