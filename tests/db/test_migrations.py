"""Migrations are the only way the schema is made: they agree with the models and run both ways."""

from __future__ import annotations

import pytest
from alembic import command
from sqlalchemy import create_engine, inspect, text

from bot.db.database import Database
from bot.db.migrate import alembic_config, current_revision, upgrade


def test_models_and_migrations_agree(any_url: str) -> None:
    """`alembic check`: autogenerate finds nothing to add or drop."""
    command.check(alembic_config(url=any_url))


def test_upgrade_is_idempotent_and_reaches_head(any_url: str) -> None:
    database = Database(url=any_url)
    try:
        upgrade(engine=database.engine)
        assert current_revision(engine=database.engine) is not None
        names = set(inspect(database.engine).get_table_names())
        assert {"papers", "channels", "posts", "votes", "comments", "processed_events"} <= names
    finally:
        database.dispose()


def test_downgrade_to_base_and_back(any_url: str) -> None:
    config = alembic_config(url=any_url)
    command.downgrade(config, "base")
    engine = create_engine(any_url)
    try:
        leftovers = set(inspect(engine).get_table_names()) - {"alembic_version"}
        assert leftovers == set()
    finally:
        engine.dispose()
    command.upgrade(config, "head")
    command.check(config)


def test_sqlite_pragmas(database: Database) -> None:
    with database.engine.connect() as conn:
        assert conn.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert conn.execute(text("PRAGMA foreign_keys")).scalar() == 1
        assert conn.execute(text("PRAGMA busy_timeout")).scalar() >= 5000


@pytest.mark.parametrize(
    ("table", "constraint"),
    [("posts", "uq_posts_channel_date"), ("votes", "uq_votes_post_user")],
)
def test_named_unique_constraints(any_url: str, table: str, constraint: str) -> None:
    engine = create_engine(any_url)
    try:
        names = {u["name"] for u in inspect(engine).get_unique_constraints(table)}
    finally:
        engine.dispose()
    assert constraint in names
