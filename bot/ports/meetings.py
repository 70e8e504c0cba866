"""The Store's part for meetings (issue 33): a channel's recurring meeting and its changes,
the sessions made from them ahead of time, the reminders sent of each, and the RSVPs.

A session row is the calendar's memory of one occurrence: its key is (`one_off`, `day`)
(meetings.meeting.Session), and every change to its time, place or status bumps its
`sequence`, so a calendar (RFC 5545) replaces the copy it holds. A session is never deleted:
a skipped one, or one the meeting no longer holds, is kept cancelled. Its platform event
(ports.session_events: Discord's scheduled event) is noted with the sequence it shows, so a
change is published once.

A notice is one message about a session that goes out once (a reminder: `kind` "reminder:1d",
"reminder:30m"): opened once (unique per session and kind), claimed by the process that sends
it, noted with its message id, as a suggestions tray is (bot/services/notices_once.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Protocol

from bot.domain import ChannelKey
from bot.meetings.ballots import Rsvp
from bot.meetings.meeting import Meeting, Move, OneOff, Session, Skip
from bot.meetings.reminders import Before


@dataclass(frozen=True, slots=True)
class MeetingPlan:
    """A channel's meeting as its admins set it: the series, the lead times of its reminders,
    and its changes (skipped and moved dates, one-off sessions)."""

    channel: ChannelKey
    meeting: Meeting
    reminders: tuple[Before, ...]
    changes: tuple[Skip | Move, ...] = ()
    one_offs: tuple[OneOff, ...] = ()


@dataclass(frozen=True, slots=True)
class SessionRecord:
    """A session as stored (`id`: its number): the occurrence, whether it is cancelled, and
    how often it changed (`sequence`, from 0) and when last (`modified_at`, UTC).
    `platform_event`: its event's id on the platform (None: none, or removed);
    `platform_event_sequence`: the sequence that event was last brought to (None: never)."""

    id: int
    channel: ChannelKey
    session: Session
    cancelled: bool
    sequence: int
    modified_at: datetime
    platform_event: str | None = None
    platform_event_sequence: int | None = None


@dataclass(frozen=True, slots=True)
class Notice:
    """A message about a session that goes out once. `claimed_by`/`claimed_at`: the process
    sending it and when it last renewed its claim; `refused_at`: when the platform last
    refused it outright; `message_id`: the message, once noted ("" when the send's outcome is
    unknown: never sent again)."""

    id: int
    session_id: int
    channel: ChannelKey
    kind: str
    opened_at: datetime
    claimed_by: str | None = None
    claimed_at: datetime | None = None
    refused_at: datetime | None = None
    message_id: str | None = None


class MeetingsStore(Protocol):
    """A channel's meeting, its sessions, the notices sent of them and the RSVPs."""

    def meeting_plan(self, *, channel: ChannelKey) -> MeetingPlan | None:
        """The channel's meeting, None when it has none (or it was turned off)."""
        ...

    def save_meeting(
        self, *, channel: ChannelKey, meeting: Meeting, reminders: Sequence[Before], now: datetime
    ) -> None:
        """Set the channel's meeting (its changes are kept), the channel row made when missing
        (as a watch makes it: no daily post until a follow)."""
        ...

    def drop_meeting(self, *, channel: ChannelKey) -> bool:
        """Turn the channel's meeting off, with its changes; whether it had one."""
        ...

    def add_change(self, *, channel: ChannelKey, change: Skip | Move | OneOff) -> None:
        """Skip or move a series date, or add a one-off, replacing an earlier change of that
        date of that kind (a move of a date moved before; a one-off on a one-off's date)."""
        ...

    def drop_change(self, *, channel: ChannelKey, day: date, one_off: bool) -> bool:
        """Undo a date's skip or move (`one_off` False) or remove a one-off; whether there was
        one."""
        ...

    def meeting_channels(self, *, platform: str, now: datetime) -> list[ChannelKey]:
        """The platform's channels with a meeting, or with sessions still to be cancelled (a
        session not cancelled that starts after `now`: the meeting was turned off)."""
        ...

    def session_records(
        self, *, channel: ChannelKey, since: datetime, until: datetime
    ) -> list[SessionRecord]:
        """The channel's sessions starting in [since, until), cancelled ones too, earliest
        first."""
        ...

    def session_record(self, *, session_id: int) -> SessionRecord | None:
        """A session by its number."""
        ...

    def add_session(self, *, channel: ChannelKey, session: Session, now: datetime) -> int | None:
        """Store a new session (sequence 0); None when its key is stored already (another
        replica made it)."""
        ...

    def change_session(
        self, *, session_id: int, session: Session, cancelled: bool, now: datetime
    ) -> None:
        """A session's new time, place or status, its sequence bumped."""
        ...

    def platform_event_channels(self, *, platform: str, now: datetime) -> list[ChannelKey]:
        """The platform's channels with a meeting, or with a session starting after `now`
        whose platform event lags behind its sequence (their meeting turned off: the events
        are removed)."""
        ...

    def note_platform_event(self, *, session_id: int, event_id: str | None, sequence: int) -> None:
        """Note the session's platform event (None: removed, or none needed) as showing the
        session at `sequence`."""
        ...

    def open_notice(self, *, session_id: int, kind: str, now: datetime) -> Notice | None:
        """Open the session's notice of this kind; None when it was opened before (here or
        by another replica)."""
        ...

    def claim_notice(
        self, *, notice_id: int, owner: str, now: datetime, holder: str | None
    ) -> bool:
        """Take or renew the claim on a notice not noted yet, if `holder` still holds it (a
        conditional update); whether this owner holds it now."""
        ...

    def notice_refused(self, *, notice_id: int, at: datetime | None) -> None:
        """Note that the platform refused the notice outright (None: a new try is under way)."""
        ...

    def notice_sent(self, *, notice_id: int, message_id: str) -> None:
        """Note the notice's message ("" when it may have gone out)."""
        ...

    def unsent_notices(self, *, platform: str, since: datetime) -> list[Notice]:
        """The platform's notices opened since then and not noted, oldest first."""
        ...

    def notices_of(self, *, session_id: int) -> list[Notice]:
        """A session's notices, oldest first."""
        ...

    def set_rsvp(self, *, session_id: int, user: str, answer: Rsvp | None, now: datetime) -> bool:
        """A member's answer to a session (None: withdrawn); whether it changed."""
        ...

    def rsvps(self, *, session_id: int) -> Mapping[str, Rsvp]:
        """Every member's answer to a session."""
        ...
