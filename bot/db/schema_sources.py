"""Typed SQLAlchemy 2 models of sources (issue 32): what each channel watches, how far each
watch was read, the candidates the watches found (suggestions, with the keys that dedupe them),
the day's tray of them and each channel's tray settings."""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import (
    JSON,
    Boolean,
    Date,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    SmallInteger,
    String,
    Text,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import Mapped, mapped_column

from bot.db.schema import Base

# A stored dedupe key's length: a longer key (a DOI or title past it) is kept as its digest
# (bot/db/suggestion_rows.stored_key), so a unique index never meets an oversized entry.
MAX_KEY = 200


class WatchRow(Base):
    """A source a channel watches; a removed watch keeps its row (its suggestions name it)."""

    __tablename__ = "watches"
    __table_args__ = (Index("ix_watches_channel_removed", "channel_id", "removed_at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    channel_id: Mapped[int] = mapped_column(ForeignKey("channels.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(16))  # "arxiv", "feed" or "crossref"
    target: Mapped[str] = mapped_column(Text)
    keywords: Mapped[list[str]] = mapped_column(JSON, default=list)
    authors: Mapped[list[str]] = mapped_column(JSON, default=list)
    added_by: Mapped[str] = mapped_column(String(64))
    added_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    removed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class SourceStateRow(Base):
    """How far a watch's source was read, and how it is failing (ports.sources.SourceState)."""

    __tablename__ = "source_states"

    watch_id: Mapped[int] = mapped_column(
        ForeignKey("watches.id", ondelete="CASCADE"), primary_key=True
    )
    cycle: Mapped[str | None] = mapped_column(String(40))
    etag: Mapped[str | None] = mapped_column(Text)
    last_modified: Mapped[str | None] = mapped_column(Text)
    read_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    failures: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    retry_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    failing_since: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    last_error: Mapped[str] = mapped_column(Text, default="", server_default="")
    reported: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class SuggestionRow(Base):
    """A candidate a channel's watch found (its fields as the source announced them), and what
    became of it: waiting, shown, promoted, hidden or passed."""

    __tablename__ = "suggestions"
    __table_args__ = (
        # The channel's suggestions by state, newest found first; and what it decided lately.
        Index("ix_suggestions_channel_state_found", "channel_id", "state", "found_at"),
        Index("ix_suggestions_channel_state_decided", "channel_id", "state", "decided_at"),
        Index("ix_suggestions_watch_id", "watch_id"),
        Index("ix_suggestions_paper_id", "paper_id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    channel_id: Mapped[int] = mapped_column(ForeignKey("channels.id", ondelete="CASCADE"))
    # NULL once the watch is gone (a removed watch keeps its row, so only a deleted channel).
    watch_id: Mapped[int | None] = mapped_column(ForeignKey("watches.id", ondelete="SET NULL"))
    title: Mapped[str] = mapped_column(Text)
    authors: Mapped[list[str]] = mapped_column(JSON, default=list)
    abstract: Mapped[str] = mapped_column(Text, default="")
    arxiv_id: Mapped[str | None] = mapped_column(String(40))
    version: Mapped[int | None] = mapped_column(Integer)
    doi: Mapped[str | None] = mapped_column(Text)
    url: Mapped[str | None] = mapped_column(Text)
    announced: Mapped[date | None] = mapped_column(Date)
    categories: Mapped[list[str]] = mapped_column(JSON, default=list)
    announce: Mapped[str | None] = mapped_column(String(16))
    source: Mapped[str] = mapped_column(Text)
    found_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    state: Mapped[str] = mapped_column(String(16), default="waiting")
    # The ranking's reason when it was shown (bot.sources.rank.Reason), and its score.
    reason_kind: Mapped[str | None] = mapped_column(String(16))
    reason_value: Mapped[str | None] = mapped_column(Text)
    reason_count: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    score: Mapped[float | None] = mapped_column(Float)
    shown_on: Mapped[date | None] = mapped_column(Date)
    decided_by: Mapped[str | None] = mapped_column(String(64))
    decided_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    paper_id: Mapped[int | None] = mapped_column(ForeignKey("papers.id", ondelete="SET NULL"))


class SuggestionKeyRow(Base):
    """One dedupe key of a suggestion (bot.sources.candidates.candidate_keys): unique per
    channel, so no candidate is kept twice in a channel, even by two writers at once."""

    __tablename__ = "suggestion_keys"
    __table_args__ = (
        UniqueConstraint("channel_id", "key", name="uq_suggestion_keys_channel_key"),
        Index("ix_suggestion_keys_suggestion_id", "suggestion_id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    channel_id: Mapped[int] = mapped_column(ForeignKey("channels.id", ondelete="CASCADE"))
    key: Mapped[str] = mapped_column(String(MAX_KEY))
    suggestion_id: Mapped[int] = mapped_column(ForeignKey("suggestions.id", ondelete="CASCADE"))


class TrayRow(Base):
    """A channel's tray of one local day: at most one; `message_id` once it is posted."""

    __tablename__ = "trays"
    __table_args__ = (
        UniqueConstraint("channel_id", "day", name="uq_trays_channel_day"),
        Index("ix_trays_day", "day"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    channel_id: Mapped[int] = mapped_column(ForeignKey("channels.id", ondelete="CASCADE"))
    day: Mapped[date] = mapped_column(Date)
    message_id: Mapped[str | None] = mapped_column(String(64))
    opened_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # When the platform last refused to post it outright (nothing posted): tried again later.
    refused_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # The process posting it, and when it last said so: another takes over only from a dead
    # or silent one (a frozen leader that resumes finds its claim gone, and posts nothing).
    claimed_by: Mapped[str | None] = mapped_column(String(200))
    claimed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class TrayItemRow(Base):
    """A suggestion a tray holds, at its rank (0 first)."""

    __tablename__ = "tray_items"
    __table_args__ = (Index("ix_tray_items_suggestion_id", "suggestion_id"),)

    tray_id: Mapped[int] = mapped_column(
        ForeignKey("trays.id", ondelete="CASCADE"), primary_key=True
    )
    rank: Mapped[int] = mapped_column(SmallInteger, primary_key=True)
    suggestion_id: Mapped[int] = mapped_column(ForeignKey("suggestions.id", ondelete="CASCADE"))


class TraySettingsRow(Base):
    """A channel's tray settings (ports.sources.TraySettings); no row: the defaults."""

    __tablename__ = "tray_settings"

    channel_id: Mapped[int] = mapped_column(
        ForeignKey("channels.id", ondelete="CASCADE"), primary_key=True
    )
    per_day: Mapped[int] = mapped_column(SmallInteger, default=3, server_default="3")
    autofill: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    autofill_below: Mapped[int] = mapped_column(SmallInteger, default=1, server_default="1")
