"""Shared fixtures: real SQLite files built with `upgrade head`, and PostgreSQL where present."""

from __future__ import annotations

import os
import shutil
import sqlite3
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from bot.db.database import Database
from bot.db.migrate import upgrade_url

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "bot" / "data" / "reading-list.txt"
# How many papers the shipped reading list holds (a paragraph each), counted from the file, so
# that adding to or trimming the list breaks no test.
SAMPLE_ENTRIES = sum(1 for block in SAMPLE.read_text("utf-8").split("\n\n") if block.strip())
# Its first line ("Related papers: …") names the list and a reference paper, never posted.
SAMPLE_QUEUED = SAMPLE_ENTRIES - 1
PG_ADMIN_URL = os.environ.get(
    "PAPERCLUB_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)


@pytest.fixture(scope="session", autouse=True)
def runtime_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A private runtime folder for the session (a worker's): the bots its tests start put
    their search sockets there (bot/config/warm_place.py), never in the machine's own."""
    folder = tmp_path_factory.mktemp("runtime")
    folder.chmod(0o700)
    saved = os.environ.get("XDG_RUNTIME_DIR")
    os.environ["XDG_RUNTIME_DIR"] = str(folder)
    yield folder
    if saved is None:
        del os.environ["XDG_RUNTIME_DIR"]
    else:
        os.environ["XDG_RUNTIME_DIR"] = saved


def _postgres_reachable() -> bool:
    """True when the test PostgreSQL answers; its tests skip otherwise."""
    try:
        engine = create_engine(PG_ADMIN_URL, connect_args={"connect_timeout": 2})
        with engine.connect() as conn:
            conn.execute(text("SELECT 1"))
        engine.dispose()
        return True
    except Exception:
        return False


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One SQLite file brought to head by `upgrade head` once a session (an xdist worker's),
    its write-ahead log folded in, for each test to copy: migrating a file per test cost
    0.16 s a test, most of a minute of the suite."""
    path = tmp_path_factory.mktemp("migrated") / "paperclub.db"
    upgrade_url(url=f"sqlite:///{path}")
    with sqlite3.connect(path) as folded:
        folded.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    folded.close()
    return path


@pytest.fixture
def sqlite_url(tmp_path: Path, migrated_sqlite: Path) -> str:
    """A migrated SQLite file of this test's own (a copy of the session's migrated one)."""
    path = tmp_path / "paperclub.db"
    shutil.copyfile(migrated_sqlite, path)
    return f"sqlite:///{path}"


@pytest.fixture(scope="session")
def postgres_server() -> str:
    """The admin URL of the test PostgreSQL, or a clean skip."""
    if not _postgres_reachable():
        pytest.skip("PostgreSQL is not running on 127.0.0.1:5432")
    return PG_ADMIN_URL


@contextmanager
def throwaway_postgres(
    *, server: str, prefix: str = "paperclub", template: str | None = None
) -> Iterator[str]:
    """The URL of a new PostgreSQL database on `server` (empty, or a copy of the database
    `template`), dropped on leaving."""
    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    admin = create_engine(server, isolation_level="AUTOCOMMIT")
    copy = f' TEMPLATE "{template}"' if template else ""
    try:
        with admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"{copy}'))
        yield server.rsplit("/", 1)[0] + f"/{name}"
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture(scope="session")
def migrated_postgres(postgres_server: str) -> Iterator[str]:
    """The name of a PostgreSQL database brought to head once a session (an xdist worker's),
    for each test's database to be created from (a template copy, instead of a migration a
    test); nothing connects to it after, as a template must not be in use."""
    with throwaway_postgres(server=postgres_server, prefix="paperclub_migrated") as url:
        upgrade_url(url=url)
        yield url.rsplit("/", 1)[1]


@pytest.fixture
def postgres_url(postgres_server: str, migrated_postgres: str) -> Iterator[str]:
    """A fresh, migrated PostgreSQL database of this test's own, dropped afterwards."""
    with throwaway_postgres(server=postgres_server, template=migrated_postgres) as url:
        yield url


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def any_url(request: pytest.FixtureRequest) -> str:
    """The same test on SQLite and on PostgreSQL."""
    name = "sqlite_url" if request.param == "sqlite" else "postgres_url"
    return str(request.getfixturevalue(name))


@pytest.fixture
def database(sqlite_url: str) -> Iterator[Database]:
    """A Database (unit-of-work factory) over a migrated SQLite file."""
    db = Database(url=sqlite_url)
    yield db
    db.dispose()


@pytest.fixture
def any_database(any_url: str) -> Iterator[Database]:
    """A Database over SQLite and, where present, PostgreSQL."""
    db = Database(url=any_url)
    yield db
    db.dispose()
