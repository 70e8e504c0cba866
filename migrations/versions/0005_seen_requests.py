"""seen_requests: signatures of signed HTTP requests within the replay window, shared by every
replica (a replay that reached one is refused by all).

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-04
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Create the table and its expiry index."""
    op.create_table(
        "seen_requests",
        sa.Column("signature", sa.String(128), nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
        sa.PrimaryKeyConstraint("signature", name=op.f("pk_seen_requests")),
    )
    op.create_index(op.f("ix_seen_requests_expires_at"), "seen_requests", ["expires_at"])


def downgrade() -> None:
    """Drop the table."""
    op.drop_index(op.f("ix_seen_requests_expires_at"), table_name="seen_requests")
    op.drop_table("seen_requests")
