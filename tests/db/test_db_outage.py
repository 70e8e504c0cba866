"""Issue 30: a unit of work the archive cannot take says ArchiveUnavailable, in time for a
person's request (Database.requests: at most REQUEST_WAIT_SECONDS for the lock) while the
scheduler's own writes wait longer, on SQLite and PostgreSQL. Locks are held for real, by
another connection."""

from __future__ import annotations

import sqlite3
import threading
import time
from datetime import UTC, datetime

import pytest
from sqlalchemy import create_engine, text

from bot.db.database import REQUEST_WAIT_SECONDS, Database
from bot.ports import ArchiveUnavailable

NOW = datetime(2026, 1, 5, 8, 0, tzinfo=UTC)
# The bound plus the time a refused BEGIN or a lock wait takes to come back.
IN_TIME = REQUEST_WAIT_SECONDS + 0.8


def _events(url: str) -> set[str]:
    """Processed event ids as a fresh connection reads them."""
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            rows = connection.execute(text("SELECT event_id FROM processed_events"))
            return {str(row[0]) for row in rows}
    finally:
        engine.dispose()


def test_a_request_gives_up_in_time_on_a_lock_held_from_outside(
    database: Database, sqlite_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    holder = sqlite3.connect(sqlite_url.removeprefix("sqlite:///"), isolation_level=None)
    try:
        holder.execute("BEGIN IMMEDIATE")
        started = time.monotonic()
        with pytest.raises(ArchiveUnavailable), database.requests() as store:
            store.mark_event(event_id="ev-locked", now=NOW)
        assert REQUEST_WAIT_SECONDS * 0.9 <= time.monotonic() - started < IN_TIME
        holder.execute("ROLLBACK")
    finally:
        holder.close()
    # The cause is in the log, without the statement or its values.
    [line] = [r.getMessage() for r in caplog.records if r.name == "bot.db.outage"]
    assert "database is locked" in line and "ev-locked" not in line and "INSERT" not in line
    with database.requests() as store:  # the lock is gone: the same write goes in
        store.mark_event(event_id="ev-locked", now=NOW)
    assert _events(sqlite_url) == {"ev-locked"}


def test_the_schedulers_write_outwaits_a_request_behind_it(
    database: Database, sqlite_url: str
) -> None:
    holder = sqlite3.connect(sqlite_url.removeprefix("sqlite:///"), isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    starting, waited, errors = threading.Event(), [0.0], list[BaseException]()

    def scheduler_write() -> None:
        """An unbounded unit: it takes the process's turn, then waits for the file's lock."""
        began = time.monotonic()
        starting.set()
        try:
            with database() as store:
                store.mark_event(event_id="ev-scheduler", now=NOW)
        except BaseException as error:
            errors.append(error)
        waited[0] = time.monotonic() - began

    worker = threading.Thread(target=scheduler_write)
    worker.start()
    try:
        assert starting.wait(5)
        started = time.monotonic()
        with pytest.raises(ArchiveUnavailable), database.requests() as store:
            store.mark_event(event_id="ev-request", now=NOW)
        assert time.monotonic() - started < IN_TIME
    finally:
        holder.execute("ROLLBACK")
        holder.close()
        worker.join(15)
    assert errors == [] and waited[0] >= REQUEST_WAIT_SECONDS * 0.9
    assert _events(sqlite_url) == {"ev-scheduler"}


def test_a_read_only_archive_is_unavailable_for_writes_and_still_read(
    database: Database, sqlite_url: str
) -> None:
    with database() as store:
        store.mark_event(event_id="ev-before", now=NOW)
    database.dispose()
    readonly = Database(
        url=sqlite_url.replace("sqlite:///", "sqlite:///file:") + "?mode=ro&uri=true"
    )
    try:
        with pytest.raises(ArchiveUnavailable), readonly.requests() as store:
            store.mark_event(event_id="ev-after", now=NOW)
        with readonly(write=False) as store:
            assert store.channels() == []
    finally:
        readonly.dispose()
    assert _events(sqlite_url) == {"ev-before"}


@pytest.mark.postgres
def test_postgres_gives_up_on_a_row_lock_in_time(postgres_url: str) -> None:
    database = Database(url=postgres_url)
    holder = create_engine(postgres_url)
    try:
        with holder.connect() as other:
            other.execute(
                text("INSERT INTO processed_events (event_id, seen_at) VALUES ('ev-held', :at)"),
                {"at": NOW},
            )  # not committed: our insert of the same id must wait for it
            started = time.monotonic()
            with pytest.raises(ArchiveUnavailable), database.requests() as store:
                store.mark_event(event_id="ev-held", now=NOW)
            assert time.monotonic() - started < IN_TIME
            other.rollback()
        with database.requests() as store:
            assert store.mark_event(event_id="ev-held", now=NOW)
        assert _events(postgres_url) == {"ev-held"}
    finally:
        holder.dispose()
        database.dispose()
