"""Migration 0006 makes the tables slack_sdk's SQLAlchemy stores read and write: exactly
theirs, but for token columns wide enough for sealed tokens."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from slack_sdk.oauth.installation_store.sqlalchemy import SQLAlchemyInstallationStore
from slack_sdk.oauth.state_store.sqlalchemy import SQLAlchemyOAuthStateStore
from sqlalchemy import MetaData, String, create_engine, inspect

from bot.slack.oauth.store import TOKENS, SealedInstallationStore

STORE_TABLES = {"slack_installations", "slack_bots", "slack_oauth_states"}


def _store_metadata(store: type[SQLAlchemyInstallationStore]) -> MetaData:
    """The stores' table definitions, built the way their constructors build them."""
    metadata = MetaData()
    store.build_installations_table(metadata=metadata, table_name="slack_installations")
    store.build_bots_table(metadata=metadata, table_name="slack_bots")
    SQLAlchemyOAuthStateStore.build_oauth_states_table(metadata, "slack_oauth_states")
    return metadata


def test_ours_are_slack_sdks_but_for_wider_token_columns() -> None:
    """Only the token columns differ from slack_sdk's, and only in length."""
    theirs, ours = (
        _store_metadata(SQLAlchemyInstallationStore),
        _store_metadata(SealedInstallationStore),
    )
    for name in STORE_TABLES:
        a, b = theirs.tables[name], ours.tables[name]
        assert [c.name for c in a.columns] == [c.name for c in b.columns]
        for column in a.columns:
            other = b.c[column.name]
            assert column.nullable == other.nullable and type(column.type) is type(other.type)
            if column.name in TOKENS:
                assert isinstance(other.type, String) and other.type.length == 1000
            else:
                assert repr(column.type) == repr(other.type)
        assert {i.name: [c.name for c in i.columns] for i in a.indexes} == {
            i.name: [c.name for c in i.columns] for i in b.indexes
        }


def _only_store_tables(name: str | None, type_: str, _parents: object) -> bool:
    """Compare the three store tables and nothing of ours."""
    return type_ != "table" or name in STORE_TABLES


def test_migrated_tables_match_the_stores(any_url: str) -> None:
    """Autogenerate against the stores' definitions finds no column, type or index to change."""
    engine = create_engine(any_url)
    try:
        with engine.connect() as conn:
            context = MigrationContext.configure(
                connection=conn,
                opts={"compare_type": True, "include_name": _only_store_tables},
            )
            diffs = compare_metadata(context, _store_metadata(SealedInstallationStore))
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
