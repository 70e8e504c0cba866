"""slack_installations, slack_bots, slack_oauth_states: the tables of slack_sdk's SQLAlchemy
installation and OAuth state stores, made here because the schema is made only by migrations
(the stores' create_tables() is never called). Column for column as slack_sdk defines them,
but for the token columns: 1000 characters instead of 200, because they hold sealed tokens
(bot/slack/oauth/store.py). tests/db/test_slack_store_tables.py holds the two in step.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-04
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# Sealed (encrypted) tokens are about 2.4 times as long as plain ones.
TOKEN = sa.String(1000)

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _bot_columns() -> list[sa.Column[object]]:
    """The columns an installation and a bot share, in slack_sdk's order."""
    return [
        sa.Column("bot_token", TOKEN),
        sa.Column("bot_id", sa.String(32)),
        sa.Column("bot_user_id", sa.String(32)),
        sa.Column("bot_scopes", sa.String(1000)),
        sa.Column("bot_refresh_token", TOKEN),
        sa.Column("bot_token_expires_at", sa.DateTime),
    ]


def upgrade() -> None:
    """Create the three tables and slack_sdk's two lookup indexes."""
    op.create_table(
        "slack_installations",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("client_id", sa.String(32), nullable=False),
        sa.Column("app_id", sa.String(32), nullable=False),
        sa.Column("enterprise_id", sa.String(32)),
        sa.Column("enterprise_name", sa.String(200)),
        sa.Column("enterprise_url", sa.String(200)),
        sa.Column("team_id", sa.String(32)),
        sa.Column("team_name", sa.String(200)),
        *_bot_columns(),
        sa.Column("user_id", sa.String(32), nullable=False),
        sa.Column("user_token", TOKEN),
        sa.Column("user_scopes", sa.String(1000)),
        sa.Column("user_refresh_token", TOKEN),
        sa.Column("user_token_expires_at", sa.DateTime),
        sa.Column("incoming_webhook_url", sa.String(200)),
        sa.Column("incoming_webhook_channel", sa.String(200)),
        sa.Column("incoming_webhook_channel_id", sa.String(200)),
        sa.Column("incoming_webhook_configuration_url", sa.String(200)),
        sa.Column("is_enterprise_install", sa.Boolean, nullable=False),
        sa.Column("token_type", sa.String(32)),
        sa.Column("installed_at", sa.DateTime, nullable=False),
    )
    op.create_index(
        "slack_installations_idx",
        "slack_installations",
        ["client_id", "enterprise_id", "team_id", "user_id", "installed_at"],
    )
    op.create_table(
        "slack_bots",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("client_id", sa.String(32), nullable=False),
        sa.Column("app_id", sa.String(32), nullable=False),
        sa.Column("enterprise_id", sa.String(32)),
        sa.Column("enterprise_name", sa.String(200)),
        sa.Column("team_id", sa.String(32)),
        sa.Column("team_name", sa.String(200)),
        *_bot_columns(),
        sa.Column("is_enterprise_install", sa.Boolean, nullable=False),
        sa.Column("installed_at", sa.DateTime, nullable=False),
    )
    op.create_index(
        "slack_bots_idx",
        "slack_bots",
        ["client_id", "enterprise_id", "team_id", "installed_at"],
    )
    op.create_table(
        "slack_oauth_states",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("state", sa.String(200), nullable=False),
        sa.Column("expire_at", sa.DateTime, nullable=False),
    )


def downgrade() -> None:
    """Drop the three tables (every installation's tokens go with them)."""
    op.drop_table("slack_oauth_states")
    op.drop_index("slack_bots_idx", table_name="slack_bots")
    op.drop_table("slack_bots")
    op.drop_index("slack_installations_idx", table_name="slack_installations")
    op.drop_table("slack_installations")
