"""Sources: channels watch arXiv categories, feeds and journals; what the watches find is kept
as suggestions, deduplicated per channel by their keys, and the day's best few are shown in a
tray. Each channel has its tray settings.

A watch or a tray setting may come before the channel follows the list: its channel row is then
made paused and marked watch_only, so it never posts until a follow says so.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-08
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
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
    """Create watches, source_states, suggestions, suggestion_keys, trays, tray_items and
    tray_settings; add channels.watch_only."""
    op.create_table(
        "watches",
        sa.Column("id", sa.Integer, nullable=False),
        sa.Column("channel_id", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("target", sa.Text, nullable=False),
        sa.Column("keywords", sa.JSON, nullable=False),
        sa.Column("authors", sa.JSON, nullable=False),
        sa.Column("added_by", sa.String(64), nullable=False),
        sa.Column("added_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("removed_at", sa.DateTime(timezone=True), nullable=True),
        _channel_fk("watches"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_watches")),
    )
    op.create_index("ix_watches_channel_removed", "watches", ["channel_id", "removed_at"])
    op.create_table(
        "source_states",
        sa.Column("watch_id", sa.Integer, nullable=False),
        sa.Column("cycle", sa.String(40), nullable=True),
        sa.Column("etag", sa.Text, nullable=True),
        sa.Column("last_modified", sa.Text, nullable=True),
        sa.Column("read_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("failures", sa.Integer, nullable=False, server_default="0"),
        sa.Column("retry_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("failing_since", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_error", sa.Text, nullable=False, server_default=""),
        sa.Column("reported", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.ForeignKeyConstraint(
            ["watch_id"],
            ["watches.id"],
            name=op.f("fk_source_states_watch_id_watches"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("watch_id", name=op.f("pk_source_states")),
    )
    op.create_table(
        "suggestions",
        sa.Column("id", sa.Integer, nullable=False),
        sa.Column("channel_id", sa.Integer, nullable=False),
        sa.Column("watch_id", sa.Integer, nullable=True),
        sa.Column("title", sa.Text, nullable=False),
        sa.Column("authors", sa.JSON, nullable=False),
        sa.Column("abstract", sa.Text, nullable=False),
        sa.Column("arxiv_id", sa.String(40), nullable=True),
        sa.Column("version", sa.Integer, nullable=True),
        sa.Column("doi", sa.Text, nullable=True),
        sa.Column("url", sa.Text, nullable=True),
        sa.Column("announced", sa.Date, nullable=True),
        sa.Column("categories", sa.JSON, nullable=False),
        sa.Column("announce", sa.String(16), nullable=True),
        sa.Column("source", sa.Text, nullable=False),
        sa.Column("found_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("reason_kind", sa.String(16), nullable=True),
        sa.Column("reason_value", sa.Text, nullable=True),
        sa.Column("reason_count", sa.Integer, nullable=False, server_default="0"),
        sa.Column("score", sa.Float, nullable=True),
        sa.Column("shown_on", sa.Date, nullable=True),
        sa.Column("decided_by", sa.String(64), nullable=True),
        sa.Column("decided_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("paper_id", sa.Integer, nullable=True),
        _channel_fk("suggestions"),
        sa.ForeignKeyConstraint(
            ["watch_id"],
            ["watches.id"],
            name=op.f("fk_suggestions_watch_id_watches"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["paper_id"],
            ["papers.id"],
            name=op.f("fk_suggestions_paper_id_papers"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_suggestions")),
    )
    op.create_index(
        "ix_suggestions_channel_state_found", "suggestions", ["channel_id", "state", "found_at"]
    )
    op.create_index(
        "ix_suggestions_channel_state_decided",
        "suggestions",
        ["channel_id", "state", "decided_at"],
    )
    op.create_index("ix_suggestions_watch_id", "suggestions", ["watch_id"])
    op.create_index("ix_suggestions_paper_id", "suggestions", ["paper_id"])
    op.create_table(
        "suggestion_keys",
        sa.Column("id", sa.Integer, nullable=False),
        sa.Column("channel_id", sa.Integer, nullable=False),
        sa.Column("key", sa.String(200), nullable=False),
        sa.Column("suggestion_id", sa.Integer, nullable=False),
        _channel_fk("suggestion_keys"),
        sa.ForeignKeyConstraint(
            ["suggestion_id"],
            ["suggestions.id"],
            name=op.f("fk_suggestion_keys_suggestion_id_suggestions"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_suggestion_keys")),
        sa.UniqueConstraint("channel_id", "key", name="uq_suggestion_keys_channel_key"),
    )
    op.create_index("ix_suggestion_keys_suggestion_id", "suggestion_keys", ["suggestion_id"])
    op.create_table(
        "trays",
        sa.Column("id", sa.Integer, nullable=False),
        sa.Column("channel_id", sa.Integer, nullable=False),
        sa.Column("day", sa.Date, nullable=False),
        sa.Column("message_id", sa.String(64), nullable=True),
        sa.Column("opened_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("refused_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("claimed_by", sa.String(200), nullable=True),
        sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=True),
        _channel_fk("trays"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_trays")),
        sa.UniqueConstraint("channel_id", "day", name="uq_trays_channel_day"),
    )
    op.create_index("ix_trays_day", "trays", ["day"])
    op.create_table(
        "tray_items",
        sa.Column("tray_id", sa.Integer, nullable=False),
        sa.Column("rank", sa.SmallInteger, nullable=False),
        sa.Column("suggestion_id", sa.Integer, nullable=False),
        sa.ForeignKeyConstraint(
            ["tray_id"],
            ["trays.id"],
            name=op.f("fk_tray_items_tray_id_trays"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["suggestion_id"],
            ["suggestions.id"],
            name=op.f("fk_tray_items_suggestion_id_suggestions"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("tray_id", "rank", name=op.f("pk_tray_items")),
    )
    op.create_index("ix_tray_items_suggestion_id", "tray_items", ["suggestion_id"])
    op.create_table(
        "tray_settings",
        sa.Column("channel_id", sa.Integer, nullable=False),
        sa.Column("per_day", sa.SmallInteger, nullable=False, server_default="3"),
        sa.Column("autofill", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("autofill_below", sa.SmallInteger, nullable=False, server_default="1"),
        _channel_fk("tray_settings"),
        sa.PrimaryKeyConstraint("channel_id", name=op.f("pk_tray_settings")),
    )
    op.add_column(
        "channels",
        sa.Column("watch_only", sa.Boolean, nullable=False, server_default=sa.false()),
    )


def downgrade() -> None:
    """Drop them again."""
    with op.batch_alter_table("channels") as batch:
        batch.drop_column("watch_only")
    op.drop_table("tray_settings")
    op.drop_index("ix_tray_items_suggestion_id", table_name="tray_items")
    op.drop_table("tray_items")
    op.drop_index("ix_trays_day", table_name="trays")
    op.drop_table("trays")
    op.drop_index("ix_suggestion_keys_suggestion_id", table_name="suggestion_keys")
    op.drop_table("suggestion_keys")
    for index in (
        "ix_suggestions_paper_id",
        "ix_suggestions_watch_id",
        "ix_suggestions_channel_state_decided",
        "ix_suggestions_channel_state_found",
    ):
        op.drop_index(index, table_name="suggestions")
    op.drop_table("suggestions")
    op.drop_table("source_states")
    op.drop_index("ix_watches_channel_removed", table_name="watches")
    op.drop_table("watches")
