"""The archive made unreachable for real: its SQLite file (and WAL) moved away with a folder in
its place, as an unmounted volume leaves it, so that nothing can be read or written, and
put back when the block ends. The engines' pooled connections are dropped at either end, so
the bot's next unit of work opens the file anew."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from bot.db.database import Database


def sqlite_path(database: Database) -> Path:
    """The SQLite file a database reads and writes."""
    return Path(str(database.engine.url.database))


def _drop_connections(database: Database) -> None:
    """Close the pooled connections of both engines (a read engine of its own on SQLite)."""
    database.engine.dispose()
    database.read_engine.dispose()


@contextmanager
def archive_gone(database: Database) -> Iterator[None]:
    """Nothing of the archive can be read or written until the block ends."""
    path = sqlite_path(database)
    files = [Path(f"{path}{tail}") for tail in ("", "-wal", "-shm")]
    _drop_connections(database)
    moved = [file for file in files if file.exists()]
    for file in moved:
        os.rename(file, f"{file}.away")
    path.mkdir()
    try:
        yield
    finally:
        path.rmdir()
        for file in moved:
            os.rename(f"{file}.away", file)
        _drop_connections(database)
