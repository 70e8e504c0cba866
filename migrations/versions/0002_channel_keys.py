"""Channel keys: channels are (platform, workspace, external id) and know whether they are
private; a queue belongs to a channel row; a message's platform id is `message_id`.

- channels: team_id -> workspace, channel_id -> external_id, + private; UNIQUE(platform,
  workspace, external_id).
- papers: channel (a platform id) -> queue_channel_id, a foreign key to channels.id; a paper
  queued for an id that no channel row has goes to the shared list.
- posts, comments, recaps: ts -> message_id (and the index and unique constraint on it).

On SQLite, Alembic's batch mode rebuilds papers and comments, and a rebuilt table loses its
triggers: the full-text triggers are created again (the FTS5 tables keep their rows, since
ids are kept). bot.db.migrate runs this with foreign keys off, as SQLite's recipe for table
rebuilds says, and checks them before committing.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# The full-text triggers of 0001 on the tables rebuilt here; copied rather than imported, as a
# revision must keep meaning what it meant when it was written.
PAPER_TRIGGERS = [
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
]
COMMENT_TRIGGERS = [
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


def _sqlite() -> bool:
    """Whether this runs on SQLite (batch rebuilds, triggers to restore)."""
    return op.get_bind().dialect.name == "sqlite"


def _triggers(*, statements: list[str]) -> None:
    """Create SQLite triggers again after their table was rebuilt (dropping any left over)."""
    if not _sqlite():
        return
    for statement in statements:
        name = statement.split()[2]
        op.execute(f"DROP TRIGGER IF EXISTS {name}")
        op.execute(statement)


def _rename_message_ids(*, old: str, new: str, length: int) -> None:
    """posts, comments and recaps: the message id column, with the index and the unique
    constraint named after it (dropped first, made again on the renamed column)."""
    suffix = {"ts": "ts", "message_id": "message"}
    with op.batch_alter_table("posts") as batch:
        batch.drop_index(f"ix_posts_channel_{suffix[old]}")
        batch.alter_column(old, new_column_name=new, type_=sa.String(length=length))
    with op.batch_alter_table("posts") as batch:
        batch.create_index(f"ix_posts_channel_{suffix[new]}", ["channel_id", new])
    with op.batch_alter_table("comments", recreate="always" if _sqlite() else "auto") as batch:
        batch.drop_constraint(f"uq_comments_channel_{suffix[old]}", type_="unique")
        batch.alter_column(
            old, new_column_name=new, type_=sa.String(length=length), existing_nullable=False
        )
    with op.batch_alter_table("comments", recreate="always" if _sqlite() else "auto") as batch:
        batch.create_unique_constraint(f"uq_comments_channel_{suffix[new]}", ["channel_id", new])
    _triggers(statements=COMMENT_TRIGGERS)
    with op.batch_alter_table("recaps") as batch:
        batch.alter_column(old, new_column_name=new, type_=sa.String(length=length))


def upgrade() -> None:
    """Apply this revision."""
    with op.batch_alter_table("channels") as batch:
        batch.drop_constraint("uq_channels_platform_id", type_="unique")
        batch.alter_column(
            "team_id",
            new_column_name="workspace",
            type_=sa.String(length=64),
            existing_nullable=False,
        )
        batch.alter_column(
            "channel_id",
            new_column_name="external_id",
            existing_type=sa.String(length=64),
            existing_nullable=False,
        )
        batch.add_column(
            sa.Column("private", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    with op.batch_alter_table("channels") as batch:
        batch.create_unique_constraint("uq_channels_key", ["platform", "workspace", "external_id"])
    with op.batch_alter_table("papers", recreate="always" if _sqlite() else "auto") as batch:
        batch.add_column(sa.Column("queue_channel_id", sa.Integer(), nullable=True))
        batch.create_foreign_key(
            "fk_papers_queue_channel_id_channels",
            "channels",
            ["queue_channel_id"],
            ["id"],
            ondelete="SET NULL",
        )
    # The lowest channel row with that id wins when several platforms share it.
    op.execute(
        "UPDATE papers SET queue_channel_id = (SELECT min(c.id) FROM channels c "
        "WHERE c.external_id = papers.channel) WHERE papers.channel IS NOT NULL"
    )
    with op.batch_alter_table("papers", recreate="always" if _sqlite() else "auto") as batch:
        batch.drop_column("channel")
    _triggers(statements=PAPER_TRIGGERS)
    _rename_message_ids(old="ts", new="message_id", length=64)
    with op.batch_alter_table("channels") as batch:
        batch.alter_column(
            "private", server_default=None, existing_type=sa.Boolean(), existing_nullable=False
        )


def downgrade() -> None:
    """Back to the shape of 0001, the data carried back."""
    _rename_message_ids(old="message_id", new="ts", length=32)
    with op.batch_alter_table("papers", recreate="always" if _sqlite() else "auto") as batch:
        batch.add_column(sa.Column("channel", sa.String(length=64), nullable=True))
    op.execute(
        "UPDATE papers SET channel = (SELECT c.external_id FROM channels c "
        "WHERE c.id = papers.queue_channel_id) WHERE papers.queue_channel_id IS NOT NULL"
    )
    with op.batch_alter_table("papers", recreate="always" if _sqlite() else "auto") as batch:
        batch.drop_constraint("fk_papers_queue_channel_id_channels", type_="foreignkey")
        batch.drop_column("queue_channel_id")
    _triggers(statements=PAPER_TRIGGERS)
    with op.batch_alter_table("channels") as batch:
        batch.drop_constraint("uq_channels_key", type_="unique")
        batch.drop_column("private")
        batch.alter_column(
            "external_id",
            new_column_name="channel_id",
            existing_type=sa.String(length=64),
            existing_nullable=False,
        )
        batch.alter_column(
            "workspace",
            new_column_name="team_id",
            type_=sa.String(length=32),
            existing_nullable=False,
        )
    with op.batch_alter_table("channels") as batch:
        batch.create_unique_constraint("uq_channels_platform_id", ["platform", "channel_id"])
