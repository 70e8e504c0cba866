"""Shared fixtures: real SQLite files built with `upgrade head`, and PostgreSQL where present."""

from __future__ import annotations

import os
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


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    """A migrated SQLite file of this test's own."""
    url = f"sqlite:///{tmp_path / 'paperclub.db'}"
    upgrade_url(url=url)
    return url


@pytest.fixture(scope="session")
def postgres_server() -> str:
    """The admin URL of the test PostgreSQL, or a clean skip."""
    if not _postgres_reachable():
        pytest.skip("PostgreSQL is not running on 127.0.0.1:5432")
    return PG_ADMIN_URL


@contextmanager
def throwaway_postgres(*, server: str, prefix: str = "paperclub") -> Iterator[str]:
    """The URL of a new, empty PostgreSQL database on `server`, dropped on leaving."""
    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    admin = create_engine(server, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
        yield server.rsplit("/", 1)[0] + f"/{name}"
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture
def postgres_url(postgres_server: str) -> Iterator[str]:
    """A fresh, migrated PostgreSQL database of this test's own, dropped afterwards."""
    with throwaway_postgres(server=postgres_server) as url:
        upgrade_url(url=url)
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
