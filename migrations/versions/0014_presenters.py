"""Presenters: each channel's rotation (members kept when they leave, so coming back keeps
their first opt-in), each session's presenter (set once by the rotation, replaced by a
volunteer or a swap) and the swaps asked for (decided once).

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-17
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _fk(table: str, column: str, target: str) -> sa.ForeignKeyConstraint:
    """A table's reference to `target`.id, gone with it, named as the models' convention
    names it."""
    return sa.ForeignKeyConstraint(
        [column], [f"{target}.id"], name=op.f(f"fk_{table}_{column}_{target}"), ondelete="CASCADE"
    )


def upgrade() -> None:
    """Create rotation_members, session_presenters and swaps."""
    op.create_table(
        "rotation_members",
        sa.Column("id", sa.Integer, nullable=False),
        sa.Column("channel_id", sa.Integer, nullable=False),
        sa.Column("user_id", sa.String(64), nullable=False),
        sa.Column("opted_in_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("away_until", sa.Date, nullable=True),
        sa.Column("left_at", sa.DateTime(timezone=True), nullable=True),
        _fk("rotation_members", "channel_id", "channels"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rotation_members")),
        sa.UniqueConstraint("channel_id", "user_id", name="uq_rotation_members_channel_user"),
    )
    op.create_table(
        "session_presenters",
        sa.Column("session_id", sa.Integer, nullable=False),
        sa.Column("user_id", sa.String(64), nullable=False),
        sa.Column("how", sa.String(16), nullable=False),
        sa.Column("assigned_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("told_at", sa.DateTime(timezone=True), nullable=True),
        _fk("session_presenters", "session_id", "sessions"),
        sa.PrimaryKeyConstraint("session_id", name=op.f("pk_session_presenters")),
    )
    op.create_table(
        "swaps",
        sa.Column("id", sa.Integer, nullable=False),
        sa.Column("channel_id", sa.Integer, nullable=False),
        sa.Column("asked_by", sa.String(64), nullable=False),
        sa.Column("asked_of", sa.String(64), nullable=False),
        sa.Column("their_session", sa.Integer, nullable=False),
        sa.Column("other_session", sa.Integer, nullable=False),
        sa.Column("asked_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("accepted", sa.Boolean, nullable=True),
        sa.Column("decided_at", sa.DateTime(timezone=True), nullable=True),
        _fk("swaps", "channel_id", "channels"),
        _fk("swaps", "their_session", "sessions"),
        _fk("swaps", "other_session", "sessions"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_swaps")),
    )
    op.create_index("ix_swaps_channel_id", "swaps", ["channel_id"])


def downgrade() -> None:
    """Drop them again."""
    op.drop_index("ix_swaps_channel_id", table_name="swaps")
    op.drop_table("swaps")
    op.drop_table("session_presenters")
    op.drop_table("rotation_members")
