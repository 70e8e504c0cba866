"""Alembic environment: runs migrations on the connection or URL the bot hands over."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection

from bot.db.engine import make_engine
from bot.db.migrate import check_foreign_keys, foreign_keys_off
from bot.db.schema import Base
from bot.db.schema_authors import AuthorNameRow  # noqa: F401  (registers the authors' index)
from bot.db.schema_meetings import MeetingRow  # noqa: F401  (registers the meetings tables)
from bot.db.schema_polls import PollSettingsRow  # noqa: F401  (registers the polls tables)
from bot.db.schema_presenters import SwapRow  # noqa: F401  (registers the presenters tables)
from bot.db.schema_session_memory import SessionRatingRow  # noqa: F401  (ratings, links)
from bot.db.schema_sources import WatchRow  # noqa: F401  (registers the sources tables)
from bot.db.schema_upkeep import ReconcileRow  # noqa: F401  (registers the upkeep tables)
from bot.db.schema_zotero import ZoteroLinkRow  # noqa: F401  (registers the Zotero tables)

config = context.config
target_metadata = Base.metadata


def include_name(name: str | None, type_: str, _parents: object) -> bool:
    """Leave the hand-written full-text objects out of autogenerate comparisons."""
    if name is None:
        return True
    if type_ == "table" and "_fts" in name:
        return False
    # PostgreSQL's words for "did you mean", kept by a trigger (migration 0018), as FTS5 is.
    if type_ == "table" and name == "paper_words":
        return False
    # slack_sdk defines these tables, not our models (test_slack_store_tables compares them).
    if type_ == "table" and name.startswith("slack_"):
        return False
    return not (type_ == "index" and name.startswith("ix_fts_"))


def _run(connection: Connection) -> None:
    """Configure the context on a live connection and run the migrations."""
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        include_name=include_name,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_offline() -> None:
    """Emit SQL instead of running it (`alembic upgrade head --sql`)."""
    context.configure(
        url=config.get_main_option("sqlalchemy.url"),
        target_metadata=target_metadata,
        literal_binds=True,
        include_name=include_name,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    """Run on the caller's connection when given one, else on a fresh engine for the URL."""
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    engine = make_engine(url=str(config.get_main_option("sqlalchemy.url")))
    try:
        with engine.connect() as conn, foreign_keys_off(connection=conn):
            _run(conn)
            check_foreign_keys(connection=conn)
            conn.commit()
    finally:
        engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
