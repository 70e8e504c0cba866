"""Meaning: a vector per paper and model (the semantic extra's), each channel's choice of how its
next paper is picked (queue order or the group's taste), and why a post's paper was picked.

Vectors are float32 bytes, unit length, searched in memory (sqlite-vec cannot load in this
Python's sqlite3): a table that works the same on SQLite and PostgreSQL.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-05
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Create embeddings; add channels.pick_order and posts.pick_reason."""
    op.create_table(
        "embeddings",
        sa.Column("id", sa.Integer, nullable=False),
        sa.Column("paper_id", sa.Integer, nullable=False),
        sa.Column("model", sa.String(100), nullable=False),
        sa.Column("vector", sa.LargeBinary, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["paper_id"],
            ["papers.id"],
            name=op.f("fk_embeddings_paper_id_papers"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_embeddings")),
        sa.UniqueConstraint("paper_id", "model", name="uq_embeddings_paper_model"),
    )
    op.create_index("ix_embeddings_model_id", "embeddings", ["model", "id"])
    op.add_column(
        "channels",
        sa.Column("pick_order", sa.String(8), nullable=False, server_default="queue"),
    )
    op.add_column("posts", sa.Column("pick_reason", sa.String(500), nullable=True))


def downgrade() -> None:
    """Drop them again."""
    with op.batch_alter_table("posts") as batch:
        batch.drop_column("pick_reason")
    with op.batch_alter_table("channels") as batch:
        batch.drop_column("pick_order")
    op.drop_index("ix_embeddings_model_id", table_name="embeddings")
    op.drop_table("embeddings")
