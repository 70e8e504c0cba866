"""/healthz reports a database that answers reads but cannot take a write: locked from outside,
read-only, a full disk, a read-only PostgreSQL; in a fixed word, within its bound, and healthy
again once the write can be taken."""

from __future__ import annotations

import shutil
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

from bot.db.database import Database
from bot.runtime.db_probe import PROBE_SECONDS, kind_of, probe_database
from bot.runtime.health import Heartbeat, check
from tests.faults.support import wait_until
from tests.web.conftest import Served


def _words(*, url: str, **probe: int) -> tuple[bool, str]:
    """Healthy or not, and the database's word, for a fresh heartbeat and the database at
    `url` (`probe`: the probe's own keywords, e.g. min_free)."""
    heartbeat = Heartbeat()
    heartbeat.beat(role="scheduler")
    database = Database(url=url)
    try:
        health = check(
            ping=lambda: probe_database(engine=database.engine, **probe), heartbeat=heartbeat
        )
    finally:
        database.dispose()
    return health.healthy, health.checks["database"]


@pytest.fixture
def beating(served: Served) -> Iterator[Served]:
    """Served, healthy: the scheduler running and its first heartbeat in."""
    served.wiring.start()
    wait_until(lambda: served.health()[0] == 200, timeout=10, what="a heartbeat")
    yield served


def test_a_database_locked_from_outside_is_unhealthy_within_the_bound(
    beating: Served, sqlite_url: str
) -> None:
    outsider = sqlite3.connect(str(make_url(sqlite_url).database), isolation_level=None)
    try:
        outsider.execute("BEGIN IMMEDIATE")  # holds the write lock, as a stuck writer would
        started = time.monotonic()
        status, body = beating.health()
        took = time.monotonic() - started
        assert (status, body["database"], body["healthy"]) == (503, "locked", False)
        assert took < PROBE_SECONDS + 1, took  # not the 10 s a vote would wait
        outsider.execute("ROLLBACK")
        assert beating.health()[0] == 200
    finally:
        outsider.close()


def test_a_read_only_database_is_unhealthy(sqlite_url: str) -> None:
    path = make_url(sqlite_url).database
    assert _words(url=sqlite_url) == (True, "ok")
    assert _words(url=f"sqlite:///file:{path}?mode=ro&uri=true") == (False, "read-only")


def test_a_disk_with_too_little_room_is_full_and_its_path_is_not_shown(
    sqlite_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    path = str(make_url(sqlite_url).database)
    free = shutil.disk_usage(Path(path).parent).free
    # The same file system, asked for more room than it has: the probe's own threshold.
    assert _words(url=sqlite_url, min_free=free + 2**30) == (False, "disk full")
    assert path in caplog.text  # the operator's log says where


def test_sqlite_saying_the_disk_is_full_reads_as_disk_full(tmp_path: Path) -> None:
    # SQLite's own SQLITE_FULL, from a database capped at its current size.
    connection = sqlite3.connect(tmp_path / "full.db")
    try:
        connection.execute("CREATE TABLE t (x BLOB)")
        (pages,) = connection.execute("PRAGMA page_count").fetchone()
        connection.execute(f"PRAGMA max_page_count = {pages}")
        with pytest.raises(sqlite3.OperationalError) as full:
            connection.execute("INSERT INTO t VALUES (zeroblob(100000))")
    finally:
        connection.close()
    assert kind_of(full.value) == "disk full"


@pytest.mark.postgres
def test_a_read_only_postgresql_is_unhealthy_and_a_writable_one_healthy(postgres_url: str) -> None:
    assert _words(url=postgres_url) == (True, "ok")
    read_only = postgres_url + "?options=-c%20default_transaction_read_only%3Don"
    assert _words(url=read_only) == (False, "read-only")
