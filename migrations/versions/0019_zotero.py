"""Zotero both ways (issue 35): each channel's link to a Zotero library (its sealed key, the
collection it reads and how far, the collection it writes to, how it is failing), and each
posted paper's copy in a library (keys and write token planned before the write, then the
versions and digest of what was written).

A copy is keyed by channel, library and post and outlives the link: connecting the same
library again resumes without writing anything twice. Both go with their channel; a copy goes
with its post. New tables only, so SQLite needs no batch mode.

Revision ID: 0019
Revises: 0018
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0019"
down_revision: str | None = "0018"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _channel_fk(table: str) -> sa.ForeignKeyConstraint:
    """A table's channel_id, gone with its channel."""
    return sa.ForeignKeyConstraint(
        ["channel_id"],
        ["channels.id"],
        name=op.f(f"fk_{table}_channel_id_channels"),
        ondelete="CASCADE",
    )


def upgrade() -> None:
    """Create zotero_links and zotero_copies."""
    op.create_table(
        "zotero_links",
        sa.Column("channel_id", sa.Integer, nullable=False),
        sa.Column("library_kind", sa.String(8), nullable=False),
        sa.Column("library_id", sa.BigInteger, nullable=False),
        sa.Column("sealed_key", sa.Text, nullable=False),
        sa.Column("source", sa.String(32), nullable=True),
        sa.Column("source_name", sa.Text, nullable=False, server_default=""),
        sa.Column("into", sa.String(8), nullable=False, server_default="tray"),
        sa.Column("source_version", sa.BigInteger, nullable=False, server_default="0"),
        sa.Column("destination", sa.String(32), nullable=True),
        sa.Column("paused", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("connected_by", sa.String(64), nullable=False),
        sa.Column("connected_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("failures", sa.Integer, nullable=False, server_default="0"),
        sa.Column("retry_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("failing_since", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_error", sa.Text, nullable=False, server_default=""),
        sa.Column("reported", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("synced_at", sa.DateTime(timezone=True), nullable=True),
        _channel_fk("zotero_links"),
        sa.PrimaryKeyConstraint("channel_id", name=op.f("pk_zotero_links")),
    )
    op.create_table(
        "zotero_copies",
        sa.Column("channel_id", sa.Integer, nullable=False),
        sa.Column("library", sa.String(40), nullable=False),
        sa.Column("post_id", sa.Integer, nullable=False),
        sa.Column("item_key", sa.String(32), nullable=False),
        sa.Column("note_key", sa.String(32), nullable=False),
        sa.Column("write_token", sa.String(64), nullable=False),
        sa.Column("stored", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("item_version", sa.BigInteger, nullable=False, server_default="0"),
        sa.Column("note_version", sa.BigInteger, nullable=False, server_default="0"),
        sa.Column("digest", sa.String(128), nullable=False, server_default=""),
        sa.Column("gone", sa.Boolean, nullable=False, server_default=sa.false()),
        _channel_fk("zotero_copies"),
        sa.ForeignKeyConstraint(
            ["post_id"],
            ["posts.id"],
            name=op.f("fk_zotero_copies_post_id_posts"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("channel_id", "library", "post_id", name=op.f("pk_zotero_copies")),
    )
    op.create_index("ix_zotero_copies_post_id", "zotero_copies", ["post_id"])


def downgrade() -> None:
    """Drop them again."""
    op.drop_index("ix_zotero_copies_post_id", table_name="zotero_copies")
    op.drop_table("zotero_copies")
    op.drop_table("zotero_links")
