"""Typed SQLAlchemy 2 models of meetings (issue 33): each channel's recurring meeting and its
changes, the sessions made from them, the notices sent of each session and the RSVPs.

Wall times ("HH:MM") and dates are the meeting's local ones, in its zone; instants are UTC.
Lengths are whole minutes."""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import (
    JSON,
    Boolean,
    Date,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    SmallInteger,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from bot.db.schema import Base

# An IANA zone name's room: the longest in the database today is 32 characters.
MAX_ZONE = 64


class MeetingRow(Base):
    """A channel's recurring meeting (meetings.meeting.Meeting): at most one; no row, no
    meeting (never set, or turned off)."""

    __tablename__ = "meetings"
    __table_args__ = (UniqueConstraint("channel_id", name="uq_meetings_channel_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    channel_id: Mapped[int] = mapped_column(ForeignKey("channels.id", ondelete="CASCADE"))
    weekday: Mapped[int] = mapped_column(SmallInteger)  # ISO: 1 Monday .. 7 Sunday
    start_time: Mapped[str] = mapped_column(String(5))  # "HH:MM", local
    zone: Mapped[str] = mapped_column(String(MAX_ZONE))
    duration_minutes: Mapped[int] = mapped_column(Integer)
    every_weeks: Mapped[int] = mapped_column(SmallInteger)
    first_date: Mapped[date] = mapped_column(Date)
    until: Mapped[date | None] = mapped_column(Date)
    place: Mapped[str] = mapped_column(Text)
    # The reminders' lead times (meetings.reminders.Before), each [days, minutes].
    reminders: Mapped[list[list[int]]] = mapped_column(JSON, default=list)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class MeetingChangeRow(Base):
    """A change to a channel's meeting: a series date skipped ("skip") or moved ("move"), or a
    one-off session ("once"). One per date of each: a skip and a move of a date replace each
    other, as the series' session of that date is one."""

    __tablename__ = "meeting_changes"
    __table_args__ = (
        UniqueConstraint("channel_id", "one_off", "day", name="uq_meeting_changes_channel_day"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    channel_id: Mapped[int] = mapped_column(ForeignKey("channels.id", ondelete="CASCADE"))
    day: Mapped[date] = mapped_column(Date)  # the series date changed, or the one-off's date
    one_off: Mapped[bool] = mapped_column(Boolean)
    kind: Mapped[str] = mapped_column(String(8))  # "skip", "move" or "once"
    to_day: Mapped[date | None] = mapped_column(Date)  # a move's new date
    # A move's new wall time, or a one-off's start ("HH:MM"); NULL for a skip.
    to_time: Mapped[str | None] = mapped_column(String(5))
    # A one-off's length; NULL: the meeting's.
    duration_minutes: Mapped[int | None] = mapped_column(Integer)
    # A move's or one-off's place; NULL: the meeting's.
    place: Mapped[str | None] = mapped_column(Text)


class SessionRow(Base):
    """A session as made and last changed (meetings.meeting.Session): kept for ever, cancelled
    rather than deleted, so a calendar learns of the cancellation (its `sequence` bumped)."""

    __tablename__ = "sessions"
    __table_args__ = (
        UniqueConstraint("channel_id", "one_off", "day", name="uq_sessions_channel_day"),
        Index("ix_sessions_channel_start", "channel_id", "start_at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    channel_id: Mapped[int] = mapped_column(ForeignKey("channels.id", ondelete="CASCADE"))
    day: Mapped[date] = mapped_column(Date)
    one_off: Mapped[bool] = mapped_column(Boolean)
    start_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    end_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    zone: Mapped[str] = mapped_column(String(MAX_ZONE))
    place: Mapped[str] = mapped_column(Text)
    moved: Mapped[bool] = mapped_column(Boolean)
    cancelled: Mapped[bool] = mapped_column(Boolean)
    sequence: Mapped[int] = mapped_column(Integer)  # 0 when made, +1 a change
    modified_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # The platform's own event of the session (Discord's scheduled event id); NULL: none.
    platform_event_id: Mapped[str | None] = mapped_column(String(64))
    # The sequence that event shows; NULL: never published. Behind `sequence`: publish again.
    platform_event_sequence: Mapped[int | None] = mapped_column(Integer)


class MeetingNoticeRow(Base):
    """A message about a session that goes out once (a reminder): one per session and kind;
    claimed and noted as a tray is (schema_sources.TrayRow)."""

    __tablename__ = "meeting_notices"
    __table_args__ = (
        UniqueConstraint("session_id", "kind", name="uq_meeting_notices_session_kind"),
        Index("ix_meeting_notices_opened_at", "opened_at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    session_id: Mapped[int] = mapped_column(ForeignKey("sessions.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(32))  # "reminder:1d", "reminder:30m", ...
    opened_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # The process sending it, and when it last said so: another takes over only from a dead
    # or silent one.
    claimed_by: Mapped[str | None] = mapped_column(String(200))
    claimed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # When the platform last refused it outright (nothing sent): tried again later.
    refused_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # The message once noted; "" when it may have gone out (never sent again).
    message_id: Mapped[str | None] = mapped_column(String(64))


class RsvpRow(Base):
    """A member's answer to a session (meetings.ballots.Rsvp); no row, no answer."""

    __tablename__ = "rsvps"

    session_id: Mapped[int] = mapped_column(
        ForeignKey("sessions.id", ondelete="CASCADE"), primary_key=True
    )
    user_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    answer: Mapped[str] = mapped_column(String(8))  # "going", "maybe" or "no"
    answered_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
