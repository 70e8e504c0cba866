"""Migration 0006 makes exactly the tables slack_sdk's SQLAlchemy stores read and write."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from slack_sdk.oauth.installation_store.sqlalchemy import SQLAlchemyInstallationStore
from slack_sdk.oauth.state_store.sqlalchemy import SQLAlchemyOAuthStateStore
from sqlalchemy import MetaData, create_engine, inspect

STORE_TABLES = {"slack_installations", "slack_bots", "slack_oauth_states"}


def _store_metadata() -> MetaData:
    """The stores' own table definitions, built the way their constructors build them."""
    metadata = MetaData()
    SQLAlchemyInstallationStore.build_installations_table(
        metadata=metadata, table_name="slack_installations"
    )
    SQLAlchemyInstallationStore.build_bots_table(metadata=metadata, table_name="slack_bots")
    SQLAlchemyOAuthStateStore.build_oauth_states_table(metadata, "slack_oauth_states")
    return metadata


def _only_store_tables(name: str | None, type_: str, _parents: object) -> bool:
    """Compare the three store tables and nothing of ours."""
    return type_ != "table" or name in STORE_TABLES


def test_migrated_tables_match_the_stores(any_url: str) -> None:
    """Autogenerate against slack_sdk's definitions finds no column, type or index to change."""
    engine = create_engine(any_url)
    try:
        with engine.connect() as conn:
            context = MigrationContext.configure(
                connection=conn,
                opts={"compare_type": True, "include_name": _only_store_tables},
            )
            diffs = compare_metadata(context, _store_metadata())
            indexes = {
                table: {ix["name"]: ix["column_names"] for ix in inspect(conn).get_indexes(table)}
                for table in STORE_TABLES
            }
    finally:
        engine.dispose()
    assert diffs == []
    assert indexes["slack_installations"] == {
        "slack_installations_idx": [
            "client_id",
            "enterprise_id",
            "team_id",
            "user_id",
            "installed_at",
        ]
    }
    assert indexes["slack_bots"] == {
        "slack_bots_idx": ["client_id", "enterprise_id", "team_id", "installed_at"]
    }
    assert indexes["slack_oauth_states"] == {}
