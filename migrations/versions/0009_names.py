"""Names: what the platform calls each channel and person, so the web archive shows #general
and display names instead of ids (written by the running bot, refreshed at most daily).

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-12
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Create names."""
    op.create_table(
        "names",
        sa.Column("id", sa.Integer, nullable=False),
        sa.Column("platform", sa.String(16), nullable=False),
        sa.Column("workspace", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("external_id", sa.String(64), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_names")),
        sa.UniqueConstraint("platform", "workspace", "kind", "external_id", name="uq_names_key"),
    )


def downgrade() -> None:
    """Drop names."""
    op.drop_table("names")
