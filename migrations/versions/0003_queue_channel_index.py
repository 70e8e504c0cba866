"""An index on papers.queue_channel_id: a channel's queue, and search's check that a paper
is not queued for a channel hidden from the viewer, no longer scan every paper.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-03
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Add the index (no table rebuild: a plain CREATE INDEX on both dialects)."""
    op.create_index("ix_papers_queue_channel", "papers", ["queue_channel_id"])


def downgrade() -> None:
    """Drop it again."""
    op.drop_index("ix_papers_queue_channel", table_name="papers")
