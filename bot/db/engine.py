"""Engines with the pragmas SQLite needs to be a safe, shared store."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, Engine, Table, create_engine, event
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session

# How long SQLite waits for another writer's lock (the scheduler's writes; a person's wait is
# shorter, see bot.db.database.REQUEST_WAIT_SECONDS).
BUSY_TIMEOUT_MS = 10_000
# PostgreSQL: how long a connect may take (libpq's connect_timeout, whole seconds, at least 2).
CONNECT_SECONDS = 2


def dialect_insert(*, dialect: str, table: Table) -> postgresql.Insert | sqlite.Insert:
    """An INSERT with ON CONFLICT support for a dialect by name (SQLite or PostgreSQL)."""
    return (postgresql.insert if dialect == "postgresql" else sqlite.insert)(table)


def upsert_insert(*, session: Session, table: Table) -> postgresql.Insert | sqlite.Insert:
    """An INSERT with ON CONFLICT support for the session's dialect (SQLite or PostgreSQL)."""
    return dialect_insert(dialect=session.get_bind().dialect.name, table=table)


def sqlite_driver(*, connection: Connection) -> Any:
    """The sqlite3 connection under a SQLAlchemy one on SQLite (the hot path talks to it
    directly), else None."""
    return connection.connection.driver_connection if connection.dialect.name == "sqlite" else None


def is_sqlite(*, url: str) -> bool:
    """True when the URL names a SQLite database."""
    return make_url(url).get_backend_name() == "sqlite"


def make_engine(*, url: str, write: bool = True) -> Engine:
    """An engine for the URL; on SQLite, WAL, foreign keys, a busy timeout and, for writers,
    BEGIN IMMEDIATE."""
    if not is_sqlite(url=url):
        # A server that drops packets fails a connect in 2 s, not the OS's minutes: a start,
        # a /healthz ping or a write says so instead of hanging, and a click still hears
        # "not saved" within Slack's 3 s.
        return create_engine(
            url, pool_pre_ping=True, future=True, connect_args={"connect_timeout": CONNECT_SECONDS}
        )
    engine = create_engine(url, connect_args={"timeout": BUSY_TIMEOUT_MS / 1000})

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        """Set the pragmas every connection needs."""
        # pysqlite's own BEGIN is off so that _on_begin decides how a transaction starts.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        # FULL: an acknowledged vote must survive a power cut, not only a crash.
        cursor.execute("PRAGMA synchronous=FULL")
        # 64 MB of page cache (the default is 2 MB): search joins on large archives need it.
        cursor.execute("PRAGMA cache_size=-65536")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Any) -> None:
        """Take the write lock up front: a deferred transaction that later writes can deadlock
        with another writer, and busy_timeout cannot resolve that."""
        # Said to the driver directly: SQLAlchemy's statement machinery costs a vote more
        # than the BEGIN itself, and there is no result to read.
        connection.connection.driver_connection.execute("BEGIN IMMEDIATE" if write else "BEGIN")

    return engine
