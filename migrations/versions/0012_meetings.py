"""Meetings: each channel's recurring meeting and its changes (skipped and moved dates, one-off
sessions), the sessions made from them (kept, cancelled rather than deleted, with a sequence
for calendars, and the platform's own event of each: Discord's scheduled event), the notices sent once of each session (reminders) and the members' RSVPs.

A meeting may come before the channel follows the list: its channel row is then made paused
and watch_only, as a watch makes it (0011).

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-15
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
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


def _session_fk(table: str) -> sa.ForeignKeyConstraint:
    """A table's session_id, gone with its session."""
    return sa.ForeignKeyConstraint(
        ["session_id"],
        ["sessions.id"],
        name=op.f(f"fk_{table}_session_id_sessions"),
        ondelete="CASCADE",
    )


def upgrade() -> None:
    """Create meetings, meeting_changes, sessions, meeting_notices and rsvps."""
    op.create_table(
        "meetings",
        sa.Column("id", sa.Integer, nullable=False),
        sa.Column("channel_id", sa.Integer, nullable=False),
        sa.Column("weekday", sa.SmallInteger, nullable=False),
        sa.Column("start_time", sa.String(5), nullable=False),
        sa.Column("zone", sa.String(64), nullable=False),
        sa.Column("duration_minutes", sa.Integer, nullable=False),
        sa.Column("every_weeks", sa.SmallInteger, nullable=False),
        sa.Column("first_date", sa.Date, nullable=False),
        sa.Column("until", sa.Date, nullable=True),
        sa.Column("place", sa.Text, nullable=False),
        sa.Column("reminders", sa.JSON, nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        _channel_fk("meetings"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_meetings")),
        sa.UniqueConstraint("channel_id", name="uq_meetings_channel_id"),
    )
    op.create_table(
        "meeting_changes",
        sa.Column("id", sa.Integer, nullable=False),
        sa.Column("channel_id", sa.Integer, nullable=False),
        sa.Column("day", sa.Date, nullable=False),
        sa.Column("one_off", sa.Boolean, nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("to_day", sa.Date, nullable=True),
        sa.Column("to_time", sa.String(5), nullable=True),
        sa.Column("duration_minutes", sa.Integer, nullable=True),
        sa.Column("place", sa.Text, nullable=True),
        _channel_fk("meeting_changes"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_meeting_changes")),
        sa.UniqueConstraint("channel_id", "one_off", "day", name="uq_meeting_changes_channel_day"),
    )
    op.create_table(
        "sessions",
        sa.Column("id", sa.Integer, nullable=False),
        sa.Column("channel_id", sa.Integer, nullable=False),
        sa.Column("day", sa.Date, nullable=False),
        sa.Column("one_off", sa.Boolean, nullable=False),
        sa.Column("start_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("end_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("zone", sa.String(64), nullable=False),
        sa.Column("place", sa.Text, nullable=False),
        sa.Column("moved", sa.Boolean, nullable=False),
        sa.Column("cancelled", sa.Boolean, nullable=False),
        sa.Column("sequence", sa.Integer, nullable=False),
        sa.Column("modified_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("platform_event_id", sa.String(64), nullable=True),
        sa.Column("platform_event_sequence", sa.Integer, nullable=True),
        _channel_fk("sessions"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_sessions")),
        sa.UniqueConstraint("channel_id", "one_off", "day", name="uq_sessions_channel_day"),
    )
    op.create_index("ix_sessions_channel_start", "sessions", ["channel_id", "start_at"])
    op.create_table(
        "meeting_notices",
        sa.Column("id", sa.Integer, nullable=False),
        sa.Column("session_id", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("opened_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("claimed_by", sa.String(200), nullable=True),
        sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("refused_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("message_id", sa.String(64), nullable=True),
        _session_fk("meeting_notices"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_meeting_notices")),
        sa.UniqueConstraint("session_id", "kind", name="uq_meeting_notices_session_kind"),
    )
    op.create_index("ix_meeting_notices_opened_at", "meeting_notices", ["opened_at"])
    op.create_table(
        "rsvps",
        sa.Column("session_id", sa.Integer, nullable=False),
        sa.Column("user_id", sa.String(64), nullable=False),
        sa.Column("answer", sa.String(8), nullable=False),
        sa.Column("answered_at", sa.DateTime(timezone=True), nullable=False),
        _session_fk("rsvps"),
        sa.PrimaryKeyConstraint("session_id", "user_id", name=op.f("pk_rsvps")),
    )


def downgrade() -> None:
    """Drop them again."""
    op.drop_table("rsvps")
    op.drop_index("ix_meeting_notices_opened_at", table_name="meeting_notices")
    op.drop_table("meeting_notices")
    op.drop_index("ix_sessions_channel_start", table_name="sessions")
    op.drop_table("sessions")
    op.drop_table("meeting_changes")
    op.drop_table("meetings")
