"""The database of one URL: its engines, its group commit and its units of work."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager

from sqlalchemy import Engine
from sqlalchemy.orm import Session, sessionmaker

from bot.db.delivered import DeliveredPosts
from bot.db.engine import make_engine
from bot.db.group_commit import GroupCommit
from bot.db.outage import translated
from bot.db.store import SqlStore

# How long a person's write (a click, a command, a form) may wait for the write lock: Slack and
# Discord want an answer within 3 s, and "not saved, try again" must make it in time.
REQUEST_WAIT_SECONDS = 2.0


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

        # The same archive for what people do: writes give up after REQUEST_WAIT_SECONDS.
        self.requests = Requests(database=self)

    @contextmanager
    def __call__(self, *, write: bool = True, wait: float | None = None) -> Iterator[SqlStore]:
        """One unit of work: kept when the block ends normally (writes: once committed, with
        the others that arrived together), undone otherwise. `wait`: the seconds a write may
        wait for the lock (None: the engine's ~10 s, for the scheduler's own work). When the
        archive cannot be read or written: ArchiveUnavailable, nothing kept."""
        if write:
            with translated(what="a write"), self.writes(wait=wait) as scope:
                yield SqlStore(scope=scope, delivered=self._delivered)
            return
        with translated(what="a read"):
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


class Requests:
    """A database's units of work for what a person does: a write waits at most
    REQUEST_WAIT_SECONDS for the lock, then says ArchiveUnavailable (the club's rooms use this;
    the scheduler's own writes use the database itself and may wait longer)."""

    def __init__(self, *, database: Database) -> None:
        """Units of work of `database`."""
        self._database = database

    def __call__(self, *, write: bool = True) -> AbstractContextManager[SqlStore]:
        """One unit of work, its wait for the write lock bounded."""
        return self._database(write=write, wait=REQUEST_WAIT_SECONDS if write else None)
