"""Typed SQLAlchemy 2 models of Zotero (issue 35): each channel's link to a Zotero library
(ports.zotero.ZoteroLink) and each posted paper's copy in one (ports.zotero.ZoteroCopy)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    false,
)
from sqlalchemy.orm import Mapped, mapped_column

from bot.db.schema import Base

# Zotero's object keys are 8 characters (records.new_object_key); room to spare, as a
# collection key comes from the API.
KEY = 32
# "groups/123" or "users/456": a library as its copies name it (ids are at most 64 bits).
LIBRARY = 40


class ZoteroLinkRow(Base):
    """A channel's link to one Zotero library; at most one a channel (its key), gone with it.
    Its copies outlive it: connecting the same library again resumes without writing twice."""

    __tablename__ = "zotero_links"

    channel_id: Mapped[int] = mapped_column(
        ForeignKey("channels.id", ondelete="CASCADE"), primary_key=True
    )
    library_kind: Mapped[str] = mapped_column(String(8))  # "users" or "groups"
    library_id: Mapped[int] = mapped_column(BigInteger)
    # The API key sealed (bot.sealing), never the key itself.
    sealed_key: Mapped[str] = mapped_column(Text)
    source: Mapped[str | None] = mapped_column(String(KEY))
    source_name: Mapped[str] = mapped_column(Text, default="", server_default="")
    into: Mapped[str] = mapped_column(String(8), default="tray", server_default="tray")
    # The library version the source was last read at (Zotero's `since`).
    source_version: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    destination: Mapped[str | None] = mapped_column(String(KEY))
    paused: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    connected_by: Mapped[str] = mapped_column(String(64))
    connected_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    failures: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    retry_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    failing_since: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    last_error: Mapped[str] = mapped_column(Text, default="", server_default="")
    reported: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    synced_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class ZoteroCopyRow(Base):
    """A posted paper's item and note in a channel's library: keys and write token planned
    before the first write, then what was written (versions, digest), or that it is gone."""

    __tablename__ = "zotero_copies"
    # Cascading a deleted post finds its copies by this index, not by a scan.
    __table_args__ = (Index("ix_zotero_copies_post_id", "post_id"),)

    channel_id: Mapped[int] = mapped_column(
        ForeignKey("channels.id", ondelete="CASCADE"), primary_key=True
    )
    library: Mapped[str] = mapped_column(String(LIBRARY), primary_key=True)
    post_id: Mapped[int] = mapped_column(
        ForeignKey("posts.id", ondelete="CASCADE"), primary_key=True
    )
    item_key: Mapped[str] = mapped_column(String(KEY))
    note_key: Mapped[str] = mapped_column(String(KEY))
    # Zotero-Write-Token: 32 characters; a replayed create with it stores nothing twice.
    write_token: Mapped[str] = mapped_column(String(64))
    stored: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    item_version: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    note_version: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    # Of the tags and note last written (hex; sha256 is 64 characters).
    digest: Mapped[str] = mapped_column(String(128), default="", server_default="")
    gone: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
