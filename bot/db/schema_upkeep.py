"""Typed SQLAlchemy 2 models of what the running bot keeps for its own work, beside the
group's archive (bot/db/schema.py): names it learnt, events it applied, signed requests it
saw, and each channel's reconciliation (reading back what was missed while it was down)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, Float, ForeignKey, Integer, SmallInteger, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from bot.db.schema import Base


class NameRow(Base):
    """What the platform calls a channel or a person of a workspace, for the web archive (it
    shows #general and display names, not ids); `name` "" when the platform could not say.
    Keyed like channel rows, with no link to them: a person has no row of their own."""

    __tablename__ = "names"
    __table_args__ = (
        UniqueConstraint("platform", "workspace", "kind", "external_id", name="uq_names_key"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    platform: Mapped[str] = mapped_column(String(16))
    workspace: Mapped[str] = mapped_column(String(64), default="")
    kind: Mapped[str] = mapped_column(String(8))  # "channel" or "person"
    external_id: Mapped[str] = mapped_column(String(64))
    name: Mapped[str] = mapped_column(String(200))
    # When the platform was last asked: a name is refreshed at most daily.
    seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ProcessedEventRow(Base):
    """An event id already applied: Slack delivers at least once, we apply once."""

    __tablename__ = "processed_events"

    event_id: Mapped[str] = mapped_column(String(128), primary_key=True)
    seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class SeenRequestRow(Base):
    """The signature of a signed HTTP request, until its replay window ends (every replica
    refuses a replay that another one already served)."""

    __tablename__ = "seen_requests"

    signature: Mapped[str] = mapped_column(String(128), primary_key=True)
    expires_at: Mapped[float] = mapped_column(Float, index=True)  # Unix seconds


class ReconcileRow(Base):
    """A channel's reconciliation: when one was last asked for, the run under way or last
    done (who holds it, how far it got, what it found) and how far back it reads."""

    __tablename__ = "reconciliations"

    channel_id: Mapped[int] = mapped_column(
        ForeignKey("channels.id", ondelete="CASCADE"), primary_key=True
    )
    # Days of posts read back: an admin setting (/paperclub reconcile N).
    window_days: Mapped[int] = mapped_column(SmallInteger, default=7, server_default="7")
    wanted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # The process running it, and when it last made progress (a stale claim is taken over).
    claimed_by: Mapped[str | None] = mapped_column(String(200))
    claimed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # What the run found: votes and comments changed, posts it could not read.
    changes: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    failures: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
