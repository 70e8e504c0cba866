"""What stays of a session after it: members' ratings (worth it, a good discussion) and the
links added to it (notes, slides).

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-18
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _fk(table: str) -> sa.ForeignKeyConstraint:
    """A table's reference to its session, gone with it, named as the models' convention
    names it."""
    return sa.ForeignKeyConstraint(
        ["session_id"],
        ["sessions.id"],
        name=op.f(f"fk_{table}_session_id_sessions"),
        ondelete="CASCADE",
    )


def upgrade() -> None:
    """Create session_ratings and session_links."""
    op.create_table(
        "session_ratings",
        sa.Column("session_id", sa.Integer, nullable=False),
        sa.Column("user_id", sa.String(64), nullable=False),
        sa.Column("worth", sa.Boolean, nullable=True),
        sa.Column("discussion", sa.Boolean, nullable=True),
        sa.Column("rated_at", sa.DateTime(timezone=True), nullable=False),
        _fk("session_ratings"),
        sa.PrimaryKeyConstraint("session_id", "user_id", name=op.f("pk_session_ratings")),
    )
    op.create_table(
        "session_links",
        sa.Column("id", sa.Integer, nullable=False),
        sa.Column("session_id", sa.Integer, nullable=False),
        sa.Column("url", sa.String(2000), nullable=False),
        sa.Column("added_by", sa.String(64), nullable=False),
        sa.Column("added_at", sa.DateTime(timezone=True), nullable=False),
        _fk("session_links"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_session_links")),
        sa.UniqueConstraint("session_id", "url", name="uq_session_links_session_url"),
    )


def downgrade() -> None:
    """Drop them again."""
    op.drop_table("session_links")
    op.drop_table("session_ratings")
