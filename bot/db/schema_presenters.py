"""Typed SQLAlchemy 2 models of who presents (issue 33): each channel's rotation, each session's
presenter, and the swaps asked for.

Instants are UTC; an away date is the member's own, a calendar date."""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import (
    Boolean,
    Date,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from bot.db.schema import Base


class RotationMemberRow(Base):
    """A member who opted into a channel's rotation (ports.presenters.RotationMember). Kept
    when they leave (`left_at`), so coming back keeps their first opt-in, and their place."""

    __tablename__ = "rotation_members"
    __table_args__ = (
        UniqueConstraint("channel_id", "user_id", name="uq_rotation_members_channel_user"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    channel_id: Mapped[int] = mapped_column(ForeignKey("channels.id", ondelete="CASCADE"))
    user_id: Mapped[str] = mapped_column(String(64))
    opted_in_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # The first date they are back; NULL: not away.
    away_until: Mapped[date | None] = mapped_column(Date)
    # When they left, by the database's clock (the port's leave takes no instant); NULL: in.
    left_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class SessionPresenterRow(Base):
    """A session's presenter (ports.presenters.Presenter): one a session, set once by the
    rotation, replaced only by a volunteer or a swap."""

    __tablename__ = "session_presenters"

    session_id: Mapped[int] = mapped_column(
        ForeignKey("sessions.id", ondelete="CASCADE"), primary_key=True
    )
    user_id: Mapped[str] = mapped_column(String(64))
    how: Mapped[str] = mapped_column(String(16))  # "rotation", "volunteer" or "swap"
    assigned_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # When their direct message went; NULL: not told yet (again NULL when another takes over).
    told_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class SwapRow(Base):
    """A swap asked for (ports.presenters.Swap): decided once, accepted or declined."""

    __tablename__ = "swaps"
    # A channel's deletion finds its swaps (their sessions' go with the channel too).
    __table_args__ = (Index("ix_swaps_channel_id", "channel_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    channel_id: Mapped[int] = mapped_column(ForeignKey("channels.id", ondelete="CASCADE"))
    asked_by: Mapped[str] = mapped_column(String(64))
    asked_of: Mapped[str] = mapped_column(String(64))
    # The session `asked_by` presents, and the one `asked_of` presents.
    their_session: Mapped[int] = mapped_column(ForeignKey("sessions.id", ondelete="CASCADE"))
    other_session: Mapped[int] = mapped_column(ForeignKey("sessions.id", ondelete="CASCADE"))
    asked_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    accepted: Mapped[bool | None] = mapped_column(Boolean)  # NULL: not decided yet
    # When it was decided, by the database's clock (the port's decide takes no instant).
    decided_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
