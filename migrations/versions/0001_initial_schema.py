"""Initial schema: papers, channels, posts, votes, comments, processed events, full-text index.

Revision ID: 0001
Revises:
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# porter over unicode61: stems English ("parallelism" finds "parallel"), folds accents.
_TOKENIZE = "porter unicode61 remove_diacritics 2"

SQLITE_CREATE = [
    f"""CREATE VIRTUAL TABLE papers_fts USING fts5(
        title, authors, abstract, content='papers', content_rowid='id', tokenize='{_TOKENIZE}')""",
    """CREATE TRIGGER papers_fts_ai AFTER INSERT ON papers BEGIN
        INSERT INTO papers_fts(rowid, title, authors, abstract)
        VALUES (new.id, new.title, new.authors, new.abstract);
    END""",
    """CREATE TRIGGER papers_fts_ad AFTER DELETE ON papers BEGIN
        INSERT INTO papers_fts(papers_fts, rowid, title, authors, abstract)
        VALUES ('delete', old.id, old.title, old.authors, old.abstract);
    END""",
    """CREATE TRIGGER papers_fts_au AFTER UPDATE OF title, authors, abstract ON papers BEGIN
        INSERT INTO papers_fts(papers_fts, rowid, title, authors, abstract)
        VALUES ('delete', old.id, old.title, old.authors, old.abstract);
        INSERT INTO papers_fts(rowid, title, authors, abstract)
        VALUES (new.id, new.title, new.authors, new.abstract);
    END""",
    f"""CREATE VIRTUAL TABLE comments_fts USING fts5(
        text, content='comments', content_rowid='id', tokenize='{_TOKENIZE}')""",
    # Deleted comments leave the index: search never finds what a member took back.
    """CREATE TRIGGER comments_fts_ai AFTER INSERT ON comments WHEN new.deleted = 0 BEGIN
        INSERT INTO comments_fts(rowid, text) VALUES (new.id, new.text);
    END""",
    """CREATE TRIGGER comments_fts_ad AFTER DELETE ON comments WHEN old.deleted = 0 BEGIN
        INSERT INTO comments_fts(comments_fts, rowid, text) VALUES ('delete', old.id, old.text);
    END""",
    """CREATE TRIGGER comments_fts_au AFTER UPDATE OF text, deleted ON comments BEGIN
        INSERT INTO comments_fts(comments_fts, rowid, text)
        SELECT 'delete', old.id, old.text WHERE old.deleted = 0;
        INSERT INTO comments_fts(rowid, text) SELECT new.id, new.text WHERE new.deleted = 0;
    END""",
]

SQLITE_DROP = [
    "DROP TRIGGER IF EXISTS comments_fts_au",
    "DROP TRIGGER IF EXISTS comments_fts_ad",
    "DROP TRIGGER IF EXISTS comments_fts_ai",
    "DROP TABLE IF EXISTS comments_fts",
    "DROP TRIGGER IF EXISTS papers_fts_au",
    "DROP TRIGGER IF EXISTS papers_fts_ad",
    "DROP TRIGGER IF EXISTS papers_fts_ai",
    "DROP TABLE IF EXISTS papers_fts",
]

# PostgreSQL: expression GIN indexes; the search queries repeat these exact expressions.
POSTGRES_CREATE = [
    """CREATE INDEX ix_fts_papers ON papers USING gin ((
        setweight(to_tsvector('english'::regconfig, coalesce(title, '')), 'A') ||
        setweight(to_tsvector('english'::regconfig, coalesce(authors::text, '')), 'B') ||
        setweight(to_tsvector('english'::regconfig, coalesce(abstract, '')), 'C')))""",
    """CREATE INDEX ix_fts_comments ON comments USING gin ((
        to_tsvector('english'::regconfig, text))) WHERE NOT deleted""",
]

POSTGRES_DROP = ["DROP INDEX IF EXISTS ix_fts_comments", "DROP INDEX IF EXISTS ix_fts_papers"]


def _create_fts(*, dialect: str) -> None:
    """Create the full-text objects for this dialect."""
    for statement in SQLITE_CREATE if dialect == "sqlite" else POSTGRES_CREATE:
        op.execute(statement)


def _drop_fts(*, dialect: str) -> None:
    """Drop the full-text objects for this dialect."""
    for statement in SQLITE_DROP if dialect == "sqlite" else POSTGRES_DROP:
        op.execute(statement)


revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Apply this revision."""
    op.create_table(
        "channels",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("platform", sa.String(length=16), nullable=False),
        sa.Column("team_id", sa.String(length=32), nullable=False),
        sa.Column("channel_id", sa.String(length=64), nullable=False),
        sa.Column("post_time", sa.String(length=5), nullable=False),
        sa.Column("timezone", sa.String(length=64), nullable=False),
        sa.Column("weekdays", sa.String(length=40), nullable=False),
        sa.Column("paused", sa.Boolean(), nullable=False),
        sa.Column("empty_notice_sent", sa.Boolean(), nullable=False),
        sa.Column("recap_day", sa.SmallInteger(), nullable=True),
        sa.Column("recap_time", sa.String(length=5), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_channels")),
        sa.UniqueConstraint("platform", "channel_id", name="uq_channels_platform_id"),
    )
    op.create_table(
        "papers",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("title", sa.String(length=300), nullable=False),
        sa.Column("authors", sa.JSON(), nullable=False),
        sa.Column("abstract", sa.Text(), nullable=False),
        sa.Column("url", sa.String(length=2000), nullable=True),
        sa.Column("arxiv_id", sa.String(length=40), nullable=True),
        sa.Column("doi", sa.String(length=300), nullable=True),
        sa.Column("fingerprint", sa.String(length=64), nullable=False),
        sa.Column("source", sa.String(length=500), nullable=False),
        sa.Column("added_by", sa.String(length=64), nullable=True),
        sa.Column("added_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("channel", sa.String(length=64), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_papers")),
        sa.UniqueConstraint("arxiv_id", name=op.f("uq_papers_arxiv_id")),
        sa.UniqueConstraint("doi", name=op.f("uq_papers_doi")),
        sa.UniqueConstraint("fingerprint", name=op.f("uq_papers_fingerprint")),
    )
    with op.batch_alter_table("papers", schema=None) as batch_op:
        batch_op.create_index("ix_papers_status_position", ["status", "position"], unique=False)

    op.create_table(
        "processed_events",
        sa.Column("event_id", sa.String(length=128), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("event_id", name=op.f("pk_processed_events")),
    )
    with op.batch_alter_table("processed_events", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_processed_events_seen_at"), ["seen_at"], unique=False)

    op.create_table(
        "posts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("paper_id", sa.Integer(), nullable=False),
        sa.Column("channel_id", sa.Integer(), nullable=False),
        sa.Column("local_date", sa.Date(), nullable=False),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("ts", sa.String(length=32), nullable=True),
        sa.Column("permalink", sa.String(length=500), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("claimed_by", sa.String(length=200), nullable=True),
        sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["channel_id"],
            ["channels.id"],
            name=op.f("fk_posts_channel_id_channels"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["paper_id"], ["papers.id"], name=op.f("fk_posts_paper_id_papers"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_posts")),
        sa.UniqueConstraint("channel_id", "local_date", name="uq_posts_channel_date"),
    )
    with op.batch_alter_table("posts", schema=None) as batch_op:
        batch_op.create_index("ix_posts_channel_ts", ["channel_id", "ts"], unique=False)
        batch_op.create_index(batch_op.f("ix_posts_paper_id"), ["paper_id"], unique=False)

    op.create_table(
        "comments",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("post_id", sa.Integer(), nullable=False),
        sa.Column("channel_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.String(length=64), nullable=False),
        sa.Column("ts", sa.String(length=32), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("edited_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("deleted", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(
            ["channel_id"],
            ["channels.id"],
            name=op.f("fk_comments_channel_id_channels"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["post_id"], ["posts.id"], name=op.f("fk_comments_post_id_posts"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_comments")),
        sa.UniqueConstraint("channel_id", "ts", name="uq_comments_channel_ts"),
    )
    with op.batch_alter_table("comments", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_comments_post_id"), ["post_id"], unique=False)

    op.create_table(
        "recaps",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("channel_id", sa.Integer(), nullable=False),
        sa.Column("local_date", sa.Date(), nullable=False),
        sa.Column("ts", sa.String(length=32), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["channel_id"],
            ["channels.id"],
            name=op.f("fk_recaps_channel_id_channels"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_recaps")),
        sa.UniqueConstraint("channel_id", "local_date", name="uq_recaps_channel_date"),
    )
    op.create_table(
        "votes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("post_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.String(length=64), nullable=False),
        sa.Column("value", sa.SmallInteger(), nullable=False),
        sa.Column("source", sa.String(length=80), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["post_id"], ["posts.id"], name=op.f("fk_votes_post_id_posts"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_votes")),
        sa.UniqueConstraint("post_id", "user_id", name="uq_votes_post_user"),
    )
    _create_fts(dialect=op.get_bind().dialect.name)


def downgrade() -> None:
    """Revert this revision."""
    _drop_fts(dialect=op.get_bind().dialect.name)
    op.drop_table("votes")
    op.drop_table("recaps")
    with op.batch_alter_table("comments", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_comments_post_id"))

    op.drop_table("comments")
    with op.batch_alter_table("posts", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_posts_paper_id"))
        batch_op.drop_index("ix_posts_channel_ts")

    op.drop_table("posts")
    with op.batch_alter_table("processed_events", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_processed_events_seen_at"))

    op.drop_table("processed_events")
    with op.batch_alter_table("papers", schema=None) as batch_op:
        batch_op.drop_index("ix_papers_status_position")

    op.drop_table("papers")
    op.drop_table("channels")
