"""The database of one URL: its engines, its group commit and its units of work."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import Engine
from sqlalchemy.orm import Session, sessionmaker

from bot.db.delivered import DeliveredPosts
from bot.db.engine import make_engine
from bot.db.group_commit import GroupCommit
from bot.db.store import SqlStore


class Database:
    """Engines and sessions for one database URL; calling it opens a unit of work."""

    def __init__(self, *, url: str) -> None:
        """Create the writer and reader engines (they differ only on SQLite)."""
        self.url = url
        self.engine: Engine = make_engine(url=url, write=True)
        self.read_engine: Engine = (
            make_engine(url=url, write=False)
            if self.engine.dialect.name == "sqlite"
            else self.engine
        )
        self.writes = GroupCommit(engine=self.engine)
        self._reader = sessionmaker(self.read_engine, expire_on_commit=False)
        self._delivered = DeliveredPosts()

    @contextmanager
    def __call__(self, *, write: bool = True) -> Iterator[SqlStore]:
        """One unit of work: kept when the block ends normally (writes: once committed, with
        the others that arrived together), undone otherwise."""
        if write:
            with self.writes() as scope:
                yield SqlStore(scope=scope, delivered=self._delivered)
            return
        store = SqlStore(opener=self._open_reader, delivered=self._delivered)
        try:
            yield store
        finally:
            if store.opened is not None:
                store.opened.close()  # a read: nothing to commit, and closing ends it

    def _open_reader(self) -> Session:
        """A read session, its transaction begun (on SQLite: one snapshot for the unit)."""
        session = self._reader()
        session.begin()
        return session

    def dispose(self) -> None:
        """Close every pooled connection."""
        self.engine.dispose()
        if self.read_engine is not self.engine:
            self.read_engine.dispose()
