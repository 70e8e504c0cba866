"""Whether the database can take a write now, cheaply and within a bound, for /healthz.

A read (SELECT 1) says the database answers, not that a vote can be stored: a full disk, a
read-only file or a lock held from outside let reads through while every write fails. So the
probe takes the write lock, writes a row and rolls it back, waiting at most PROBE_SECONDS for a
lock; on SQLite it also asks the file system for the free space, since a write that is rolled
back never reaches the disk (in WAL mode pages are written at commit) and would pass on a full
one. PostgreSQL's disk is not ours to see: there only the write and its errors tell.
"""

from __future__ import annotations

import os
import shutil

from sqlalchemy import Engine
from sqlalchemy.engine import URL

from bot.db.engine import BUSY_TIMEOUT_MS

# How long the probe waits for the write lock (our own writes hold it for milliseconds).
PROBE_SECONDS = 1.0
# Under this much free space on a SQLite database's file system, a vote's pages and the WAL's
# frames may not fit: the disk counts as full.
MIN_FREE_BYTES = 8 * 1024 * 1024
# A row every migrated database has, written and rolled back.
_WRITE = "UPDATE alembic_version SET version_num = version_num"

# SQLite's primary result codes (the low byte of an extended code), as /healthz words.
_SQLITE_KINDS = {5: "locked", 6: "locked", 8: "read-only", 10: "disk error", 13: "disk full"}
_SQLITE_KINDS |= {14: "cannot open"}
# PostgreSQL's SQLSTATEs, exact first, then by class (the first two characters).
_PG_KINDS = {"53100": "disk full", "25006": "read-only", "55P03": "locked", "57014": "too slow"}
_PG_CLASSES = {"08": "unreachable", "53": "out of resources", "57": "unreachable"}


class Unwritable(Exception):
    """The database cannot take a write; `kind` is the word /healthz shows."""

    def __init__(self, *, kind: str, detail: str) -> None:
        """`detail` is for the log only."""
        super().__init__(detail)
        self.kind = kind


def kind_of(exc: BaseException) -> str:
    """A fixed word for what went wrong: the driver's codes decide, never its message."""
    if isinstance(exc, Unwritable):
        return exc.kind
    driver = getattr(exc, "orig", None) or exc  # SQLAlchemy wraps the driver's error
    code = getattr(driver, "sqlite_errorcode", None)
    if isinstance(code, int):
        return _SQLITE_KINDS.get(code & 0xFF, "failing")
    state = getattr(driver, "sqlstate", None)
    if isinstance(state, str) and state:
        return _PG_KINDS.get(state) or _PG_CLASSES.get(state[:2], "failing")
    if type(driver).__name__ == "OperationalError":
        return "unreachable"  # psycopg's failed connect carries no SQLSTATE
    return "failing"


def _sqlite_path(*, url: URL) -> str | None:
    """The database file's path, or None (in memory)."""
    path = url.database or ""
    if path.startswith("file:"):
        path = path[len("file:") :].partition("?")[0]
    return None if path in ("", ":memory:") else path


def probe_database(
    *, engine: Engine, seconds: float = PROBE_SECONDS, min_free: int = MIN_FREE_BYTES
) -> None:
    """Return when a write would be taken now; raise (Unwritable or the driver's error) when
    not, within about `seconds` (a PostgreSQL connect has its engine's own timeout)."""
    if engine.dialect.name == "sqlite":
        path = _sqlite_path(url=engine.url)
        if path is not None:
            free = shutil.disk_usage(os.path.dirname(os.path.abspath(path))).free
            if free < min_free:
                raise Unwritable(kind="disk full", detail=f"{free} bytes free by {path}")
        _probe_sqlite(engine=engine, seconds=seconds)
        return
    with engine.connect() as connection:
        transaction = connection.begin()
        try:
            milliseconds = int(seconds * 1000)
            connection.exec_driver_sql(f"SET LOCAL lock_timeout = {milliseconds}")
            connection.exec_driver_sql(f"SET LOCAL statement_timeout = {2 * milliseconds}")
            connection.exec_driver_sql(_WRITE)
        finally:
            transaction.rollback()


def _probe_sqlite(*, engine: Engine, seconds: float) -> None:
    """BEGIN IMMEDIATE, the write, ROLLBACK on a pooled writer connection, whose busy timeout
    is shortened for the probe and put back after (the engine's BEGIN hook is bypassed: the
    statements go to the driver)."""
    pooled = engine.raw_connection()
    try:
        driver = pooled.driver_connection
        assert driver is not None
        driver.execute(f"PRAGMA busy_timeout={int(seconds * 1000)}")
        try:
            driver.execute("BEGIN IMMEDIATE")
            try:
                driver.execute(_WRITE)
            finally:
                driver.execute("ROLLBACK")
        finally:
            driver.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    finally:
        pooled.close()
