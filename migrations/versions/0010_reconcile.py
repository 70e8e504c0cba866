"""Reconciliation: reading back the votes and comments a bot missed while it was down.

Each channel gets a row saying when a run was asked for, which process holds it and what it
found; posts say when they were last read back (an interrupted run resumes after them); votes
and comments say whether they came live or were read back; and a withdrawn vote leaves its
time, so a read made before it cannot bring the vote back.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Add the reconciliation tables and columns."""
    op.create_table(
        "reconciliations",
        sa.Column("channel_id", sa.Integer, nullable=False),
        sa.Column("window_days", sa.SmallInteger, nullable=False, server_default="7"),
        sa.Column("wanted_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("claimed_by", sa.String(200), nullable=True),
        sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("changes", sa.Integer, nullable=False, server_default="0"),
        sa.Column("failures", sa.Integer, nullable=False, server_default="0"),
        sa.ForeignKeyConstraint(
            ["channel_id"],
            ["channels.id"],
            name=op.f("fk_reconciliations_channel_id_channels"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("channel_id", name=op.f("pk_reconciliations")),
    )
    op.create_table(
        "vote_withdrawals",
        sa.Column("id", sa.Integer, nullable=False),
        sa.Column("post_id", sa.Integer, nullable=False),
        sa.Column("user_id", sa.String(64), nullable=False),
        sa.Column("withdrawn_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("source", sa.String(80), nullable=False, server_default=""),
        sa.ForeignKeyConstraint(
            ["post_id"],
            ["posts.id"],
            name=op.f("fk_vote_withdrawals_post_id_posts"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_vote_withdrawals")),
        sa.UniqueConstraint("post_id", "user_id", name="uq_vote_withdrawals_post_user"),
    )
    with op.batch_alter_table("posts") as batch:
        batch.add_column(sa.Column("reconciled_at", sa.DateTime(timezone=True), nullable=True))
    for table in ("votes", "comments"):
        with op.batch_alter_table(table) as batch:
            batch.add_column(
                sa.Column("origin", sa.String(16), nullable=False, server_default="live")
            )


def downgrade() -> None:
    """Drop them."""
    for table in ("votes", "comments"):
        with op.batch_alter_table(table) as batch:
            batch.drop_column("origin")
    with op.batch_alter_table("posts") as batch:
        batch.drop_column("reconciled_at")
    op.drop_table("vote_withdrawals")
    op.drop_table("reconciliations")
