"""Typed SQLAlchemy 2 models; Alembic migrations are the only way this schema reaches a database."""

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
    LargeBinary,
    MetaData,
    SmallInteger,
    String,
    Text,
    UniqueConstraint,
    false,
    func,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

# Named constraints, so migrations can refer to them on every dialect.
NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    """Declarative base with the naming convention."""

    metadata = MetaData(naming_convention=NAMING)


class WorkspaceRow(Base):
    """A workspace: a Slack team or a Discord guild (platform "" and team "" is the archive no
    platform has claimed yet). Every paper belongs to one; channels name theirs by key."""

    __tablename__ = "workspaces"
    __table_args__ = (UniqueConstraint("platform", "team", name="uq_workspaces_key"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    platform: Mapped[str] = mapped_column(String(16))
    team: Mapped[str] = mapped_column(String(64))
    # Bookkeeping only, so the database's clock: no code path needs to pass one in.
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class PaperRow(Base):
    """A paper and its place in a queue, in one workspace: the same paper read by two groups
    is two rows, each with its own votes, comments and queue place."""

    __tablename__ = "papers"
    __table_args__ = (
        UniqueConstraint("workspace_id", "arxiv_id", name="uq_papers_workspace_arxiv"),
        UniqueConstraint("workspace_id", "doi", name="uq_papers_workspace_doi"),
        UniqueConstraint("workspace_id", "fingerprint", name="uq_papers_workspace_fingerprint"),
        Index("ix_papers_workspace_status_position", "workspace_id", "status", "position"),
        # Queues per channel, and search's "not queued for a channel hidden from the viewer".
        Index("ix_papers_queue_channel", "queue_channel_id"),
        Index("ix_papers_list_id", "list_id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    workspace_id: Mapped[int] = mapped_column(ForeignKey("workspaces.id", ondelete="CASCADE"))
    title: Mapped[str] = mapped_column(String(300))
    authors: Mapped[list[str]] = mapped_column(JSON, default=list)
    abstract: Mapped[str] = mapped_column(Text, default="")
    url: Mapped[str | None] = mapped_column(String(2000))
    arxiv_id: Mapped[str | None] = mapped_column(String(40))
    doi: Mapped[str | None] = mapped_column(String(300))
    fingerprint: Mapped[str] = mapped_column(String(64))
    source: Mapped[str] = mapped_column(String(500), default="")
    added_by: Mapped[str | None] = mapped_column(String(64))
    added_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    position: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16), default="queued")
    # The channel whose queue holds the paper; NULL is the list every channel draws from.
    queue_channel_id: Mapped[int | None] = mapped_column(
        ForeignKey("channels.id", ondelete="SET NULL")
    )
    # The title was made from the abstract's opening words (shown as such until enriched).
    title_derived: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # What the import held before enrichment changed it: {"title", "abstract", "authors", ...}.
    provenance: Mapped[dict[str, object] | None] = mapped_column(JSON)
    # Fields a person typed (enrichment never changes them); NULL is none.
    locked: Mapped[list[str] | None] = mapped_column(JSON)
    enriched_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # The last enrichment verdict: found, unchanged, unclear, none (NULL: never tried).
    enrichment: Mapped[str | None] = mapped_column(String(16))
    published_on: Mapped[date | None] = mapped_column(Date)
    # The reading list it came from (reading_lists.id; no foreign key, see migration 0004).
    list_id: Mapped[int | None] = mapped_column(Integer)


class ReadingListRow(Base):
    """A reading list as imported: its name (a file's header line) and where it came from."""

    __tablename__ = "reading_lists"
    __table_args__ = (UniqueConstraint("name", "origin", name="uq_reading_lists_name"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(300))
    origin: Mapped[str] = mapped_column(String(500))
    added_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class EnrichCandidateRow(Base):
    """One record of an unclear match, kept for a person to confirm."""

    __tablename__ = "enrich_candidates"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    paper_id: Mapped[int] = mapped_column(ForeignKey("papers.id", ondelete="CASCADE"), index=True)
    record: Mapped[dict[str, object]] = mapped_column(JSON)
    reason: Mapped[str] = mapped_column(String(200))
    found_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class LookupCacheRow(Base):
    """An answer of arXiv or Crossref, by the sha256 of the URL asked."""

    __tablename__ = "lookup_cache"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    url: Mapped[str] = mapped_column(Text)
    status: Mapped[int] = mapped_column(SmallInteger)
    body: Mapped[str] = mapped_column(Text)
    fetched_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ChannelRow(Base):
    """A channel that follows the list, with its schedule; keyed by (platform, workspace,
    external id), where the external id is the platform's own channel id."""

    __tablename__ = "channels"
    __table_args__ = (
        UniqueConstraint("platform", "workspace", "external_id", name="uq_channels_key"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    platform: Mapped[str] = mapped_column(String(16))
    # Slack's team id or Discord's guild id; "" where the platform has none (the console).
    workspace: Mapped[str] = mapped_column(String(64), default="")
    external_id: Mapped[str] = mapped_column(String(64))
    # Private channels, DMs and private threads: what is said there is found only there.
    private: Mapped[bool] = mapped_column(Boolean, default=False)
    post_time: Mapped[str] = mapped_column(String(5))
    timezone: Mapped[str] = mapped_column(String(64))
    weekdays: Mapped[str] = mapped_column(String(40))
    paused: Mapped[bool] = mapped_column(Boolean, default=False)
    empty_notice_sent: Mapped[bool] = mapped_column(Boolean, default=False)
    # The weekly recap: ISO weekday and local HH:MM; NULL is off (the default).
    recap_day: Mapped[int | None] = mapped_column(SmallInteger)
    recap_time: Mapped[str | None] = mapped_column(String(5))
    # How the next paper is picked: "queue" (list order) or "taste" (the group's votes).
    pick_order: Mapped[str] = mapped_column(String(8), default="queue", server_default="queue")
    # Made for a watch or tray settings alone: paused, so it never posts, until a follow.
    watch_only: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class PostRow(Base):
    """One paper in one channel on one local date; the row is written before Slack is called."""

    __tablename__ = "posts"
    __table_args__ = (
        UniqueConstraint("channel_id", "local_date", name="uq_posts_channel_date"),
        Index("ix_posts_channel_message", "channel_id", "message_id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    paper_id: Mapped[int] = mapped_column(ForeignKey("papers.id", ondelete="CASCADE"), index=True)
    channel_id: Mapped[int] = mapped_column(ForeignKey("channels.id", ondelete="CASCADE"))
    local_date: Mapped[date] = mapped_column(Date)
    state: Mapped[str] = mapped_column(String(16), default="pending")
    # The platform's id of the message (Slack's ts, Discord's snowflake).
    message_id: Mapped[str | None] = mapped_column(String(64))
    permalink: Mapped[str | None] = mapped_column(String(500))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # Who is posting it and since when: a lease, so a crashed poster's claim can be taken over.
    claimed_by: Mapped[str | None] = mapped_column(String(200))
    claimed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # One line on why the taste picker chose this paper; NULL when it came in queue order.
    pick_reason: Mapped[str | None] = mapped_column(String(500))
    # When its reactions and thread were last read back (a run interrupted resumes after it).
    reconciled_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class VoteRow(Base):
    """One person's current vote on a post."""

    __tablename__ = "votes"
    __table_args__ = (UniqueConstraint("post_id", "user_id", name="uq_votes_post_user"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    post_id: Mapped[int] = mapped_column(ForeignKey("posts.id", ondelete="CASCADE"))
    user_id: Mapped[str] = mapped_column(String(64))
    value: Mapped[int] = mapped_column(SmallInteger)
    # What set the vote (button, or the reaction name), so removing that reaction withdraws it.
    source: Mapped[str] = mapped_column(String(80), default="button")
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # "live" (an event or a click) or "reconciled" (read back after events were lost).
    origin: Mapped[str] = mapped_column(String(16), default="live", server_default="live")


class VoteWithdrawalRow(Base):
    """When a person last withdrew their vote on a post: a reconciliation that read the post
    before then must not bring the vote back (bot.services.reconcile)."""

    __tablename__ = "vote_withdrawals"
    __table_args__ = (UniqueConstraint("post_id", "user_id", name="uq_vote_withdrawals_post_user"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    post_id: Mapped[int] = mapped_column(ForeignKey("posts.id", ondelete="CASCADE"))
    user_id: Mapped[str] = mapped_column(String(64))
    withdrawn_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # What the vote was set by when it was withdrawn: a button's withdrawal stays, whatever
    # reaction a read-back still finds.
    source: Mapped[str] = mapped_column(String(80), default="", server_default="")


class CommentRow(Base):
    """A reply in a post's thread."""

    __tablename__ = "comments"
    __table_args__ = (
        UniqueConstraint("channel_id", "message_id", name="uq_comments_channel_message"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    post_id: Mapped[int] = mapped_column(ForeignKey("posts.id", ondelete="CASCADE"), index=True)
    channel_id: Mapped[int] = mapped_column(ForeignKey("channels.id", ondelete="CASCADE"))
    user_id: Mapped[str] = mapped_column(String(64))
    message_id: Mapped[str] = mapped_column(String(64))
    text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    edited_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    deleted: Mapped[bool] = mapped_column(Boolean, default=False)
    # "live" or "reconciled": how the comment's current text reached the archive.
    origin: Mapped[str] = mapped_column(String(16), default="live", server_default="live")


class RecapRow(Base):
    """A weekly recap sent (or being sent) to a channel on a local date: at most one."""

    __tablename__ = "recaps"
    __table_args__ = (UniqueConstraint("channel_id", "local_date", name="uq_recaps_channel_date"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    channel_id: Mapped[int] = mapped_column(ForeignKey("channels.id", ondelete="CASCADE"))
    local_date: Mapped[date] = mapped_column(Date)
    message_id: Mapped[str | None] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class EmbeddingRow(Base):
    """A paper's text as a unit float32 vector of one model (the semantic extra); a paper whose
    text changes loses its vector, and the embedder makes a new one."""

    __tablename__ = "embeddings"
    __table_args__ = (
        UniqueConstraint("paper_id", "model", name="uq_embeddings_paper_model"),
        Index("ix_embeddings_model_id", "model", "id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    paper_id: Mapped[int] = mapped_column(ForeignKey("papers.id", ondelete="CASCADE"))
    model: Mapped[str] = mapped_column(String(100))
    vector: Mapped[bytes] = mapped_column(LargeBinary)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
