"""A fake Zotero with one key, a client of it whose waits are recorded, not slept, and the
sync's world over a migrated archive (`world`)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import pytest

from bot.db.database import Database
from bot.zotero import LibraryRef, ZoteroClient, ZoteroSession, new_object_key
from tests.fakezotero import FakeZotero

if TYPE_CHECKING:
    from tests.zotero.sync_support import World

KEY = "P9NiFoyLeZu2bZNvvuQPDWsd"
USER = 123456


@dataclass
class Waits:
    """A monotonic clock that moves only when the client sleeps; every sleep recorded."""

    now: float = 1000.0
    slept: list[float] = field(default_factory=list)

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(round(seconds, 3))
        self.now += seconds


@dataclass
class Setup:
    """The running fake, a client of USER's library, and the client's waits."""

    fake: FakeZotero
    client: ZoteroClient
    waits: Waits

    def client_for(self, *, key: str = KEY, library: LibraryRef | None = None) -> ZoteroClient:
        """Another client of the same fake (a second replica, another key or library)."""
        return make_client(fake=self.fake, waits=self.waits, key=key, library=library)

    def titles(self) -> list[str]:
        """Titles of every item in USER's library, notes as "note:<parent>"."""
        library = self.fake.library(kind="users", id=USER)
        return sorted(
            d.get("title") or f"note:{d.get('parentItem')}" for d in library.live(kind="items")
        )


def session(*, fake: FakeZotero, waits: Waits, key: str = KEY) -> ZoteroSession:
    """A session to the fake (loopback allowed), waiting on `waits`."""
    return ZoteroSession(
        api_key=key, base=fake.url, allow_private=True, clock=waits.clock, sleep=waits.sleep
    )


def make_client(
    *, fake: FakeZotero, waits: Waits, key: str = KEY, library: LibraryRef | None = None
) -> ZoteroClient:
    """A client of `library` (USER's by default) in the fake."""
    return ZoteroClient(
        session=session(fake=fake, waits=waits, key=key),
        library=library or LibraryRef(kind="users", id=USER),
    )


@pytest.fixture
def zotero() -> Iterator[Setup]:
    """A running fake with KEY for USER, and a client of USER's library."""
    with FakeZotero() as fake:
        fake.add_key(key=KEY, user_id=USER)
        waits = Waits()
        yield Setup(fake=fake, client=make_client(fake=fake, waits=waits), waits=waits)


def collection(*, client: ZoteroClient, name: str) -> str:
    """A new collection called `name`, made by the client under a key of its own; the key."""
    key = new_object_key()
    assert client.make_collection(key=key, name=name)
    return key


@pytest.fixture
def world(database: Database) -> Iterator[World]:
    """The sync's world (tests/zotero/sync_support.py) over a migrated SQLite archive."""
    from tests.zotero.sync_support import opened_world  # it imports this module's names

    with opened_world(database=database) as opened:
        yield opened
