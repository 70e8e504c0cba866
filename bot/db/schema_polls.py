"""Typed SQLAlchemy 2 models of the poll that chooses a session's paper (issue 33): each
channel's poll settings, its nominations, its members' ballots, and each session's poll.

A ballot and a slate name nominations by id (JSON lists of ints); instants are UTC."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    SmallInteger,
    String,
    UniqueConstraint,
    func,
)
from sqlalchemy.orm import Mapped, mapped_column

from bot.db.schema import Base


class PollSettingsRow(Base):
    """A channel's poll settings (ports.polls.PollSettings); no row: its sessions have no
    poll. Each lead time (meetings.reminders.Before) is its days and its minutes."""

    __tablename__ = "poll_settings"

    channel_id: Mapped[int] = mapped_column(
        ForeignKey("channels.id", ondelete="CASCADE"), primary_key=True
    )
    mode: Mapped[str] = mapped_column(String(16))  # "approval" or "ranked"
    hidden: Mapped[bool] = mapped_column(Boolean)
    weighted: Mapped[bool] = mapped_column(Boolean)
    opens_days: Mapped[int] = mapped_column(SmallInteger)
    opens_minutes: Mapped[int] = mapped_column(Integer)
    closes_days: Mapped[int] = mapped_column(SmallInteger)
    closes_minutes: Mapped[int] = mapped_column(Integer)
    slate: Mapped[int] = mapped_column(SmallInteger)  # how many papers the queue puts forward
    # Bookkeeping only, so the database's clock: the port's save takes no instant.
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class NominationRow(Base):
    """A paper put forward in a channel: one per paper, kept once chosen (`chosen_for`), so a
    paper read is never put forward again by a nomination of its own."""

    __tablename__ = "nominations"
    __table_args__ = (
        UniqueConstraint("channel_id", "paper_id", name="uq_nominations_channel_paper"),
        # A paper's deletion finds its nominations (the unique one leads with the channel).
        Index("ix_nominations_paper_id", "paper_id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    channel_id: Mapped[int] = mapped_column(ForeignKey("channels.id", ondelete="CASCADE"))
    paper_id: Mapped[int] = mapped_column(ForeignKey("papers.id", ondelete="CASCADE"))
    nominated_by: Mapped[str] = mapped_column(String(64))  # "": the queue put it forward
    nominated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # The session whose poll chose it; NULL while it waits.
    chosen_for: Mapped[int | None] = mapped_column(ForeignKey("sessions.id", ondelete="SET NULL"))


class BallotRow(Base):
    """A member's standing ballot in a channel (meetings.ballots.Ballot): the last they cast,
    counted by every poll whose slate it names; no row, no ballot (never cast, or withdrawn)."""

    __tablename__ = "ballots"
    __table_args__ = (UniqueConstraint("channel_id", "voter", name="uq_ballots_channel_voter"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    channel_id: Mapped[int] = mapped_column(ForeignKey("channels.id", ondelete="CASCADE"))
    voter: Mapped[str] = mapped_column(String(64))
    choices: Mapped[list[int]] = mapped_column(JSON)  # nomination ids, most wanted first
    cast_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class SessionPollRow(Base):
    """A session's poll (ports.polls.SessionPoll): opened once with its slate frozen, closed
    once with its winner."""

    __tablename__ = "session_polls"

    session_id: Mapped[int] = mapped_column(
        ForeignKey("sessions.id", ondelete="CASCADE"), primary_key=True
    )
    slate: Mapped[list[int]] = mapped_column(JSON)  # nomination ids, in the order shown
    opened_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    closed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # NULL: still open, nobody voted, or its nomination is gone.
    winner: Mapped[int | None] = mapped_column(ForeignKey("nominations.id", ondelete="SET NULL"))
    # The tally as it closed (ports.polls.Tally), kept as ballots change after: its mode and
    # [nomination id, votes] pairs in finishing order. NULL while open.
    mode: Mapped[str | None] = mapped_column(String(16))
    counts: Mapped[list[list[float]] | None] = mapped_column(JSON)
