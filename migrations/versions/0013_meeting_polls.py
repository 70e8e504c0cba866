"""Meeting polls: each channel's poll settings, its nominations (a paper once a channel, kept
once chosen), its members' standing ballots, and each session's poll (opened once with its
slate, closed once with its winner).

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-16
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _fk(table: str, column: str, target: str, *, ondelete: str) -> sa.ForeignKeyConstraint:
    """A table's reference to `target`.id, named as the models' convention names it."""
    return sa.ForeignKeyConstraint(
        [column],
        [f"{target}.id"],
        name=op.f(f"fk_{table}_{column}_{target}"),
        ondelete=ondelete,
    )


def upgrade() -> None:
    """Create poll_settings, nominations, ballots and session_polls."""
    op.create_table(
        "poll_settings",
        sa.Column("channel_id", sa.Integer, nullable=False),
        sa.Column("mode", sa.String(16), nullable=False),
        sa.Column("hidden", sa.Boolean, nullable=False),
        sa.Column("weighted", sa.Boolean, nullable=False),
        sa.Column("opens_days", sa.SmallInteger, nullable=False),
        sa.Column("opens_minutes", sa.Integer, nullable=False),
        sa.Column("closes_days", sa.SmallInteger, nullable=False),
        sa.Column("closes_minutes", sa.Integer, nullable=False),
        sa.Column("slate", sa.SmallInteger, nullable=False),
        sa.Column(
            "updated_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()
        ),
        _fk("poll_settings", "channel_id", "channels", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("channel_id", name=op.f("pk_poll_settings")),
    )
    op.create_table(
        "nominations",
        sa.Column("id", sa.Integer, nullable=False),
        sa.Column("channel_id", sa.Integer, nullable=False),
        sa.Column("paper_id", sa.Integer, nullable=False),
        sa.Column("nominated_by", sa.String(64), nullable=False),
        sa.Column("nominated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("chosen_for", sa.Integer, nullable=True),
        _fk("nominations", "channel_id", "channels", ondelete="CASCADE"),
        _fk("nominations", "paper_id", "papers", ondelete="CASCADE"),
        _fk("nominations", "chosen_for", "sessions", ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_nominations")),
        sa.UniqueConstraint("channel_id", "paper_id", name="uq_nominations_channel_paper"),
    )
    op.create_index("ix_nominations_paper_id", "nominations", ["paper_id"])
    op.create_table(
        "ballots",
        sa.Column("id", sa.Integer, nullable=False),
        sa.Column("channel_id", sa.Integer, nullable=False),
        sa.Column("voter", sa.String(64), nullable=False),
        sa.Column("choices", sa.JSON, nullable=False),
        sa.Column("cast_at", sa.DateTime(timezone=True), nullable=False),
        _fk("ballots", "channel_id", "channels", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ballots")),
        sa.UniqueConstraint("channel_id", "voter", name="uq_ballots_channel_voter"),
    )
    op.create_table(
        "session_polls",
        sa.Column("session_id", sa.Integer, nullable=False),
        sa.Column("slate", sa.JSON, nullable=False),
        sa.Column("opened_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("winner", sa.Integer, nullable=True),
        sa.Column("mode", sa.String(16), nullable=True),
        sa.Column("counts", sa.JSON, nullable=True),
        _fk("session_polls", "session_id", "sessions", ondelete="CASCADE"),
        _fk("session_polls", "winner", "nominations", ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("session_id", name=op.f("pk_session_polls")),
    )


def downgrade() -> None:
    """Drop them again."""
    op.drop_table("session_polls")
    op.drop_table("ballots")
    op.drop_index("ix_nominations_paper_id", table_name="nominations")
    op.drop_table("nominations")
    op.drop_table("poll_settings")
