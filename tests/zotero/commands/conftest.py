"""The command tests' fixtures: the fake Zotero with the keys and collections of
tests/zotero/command_rooms.py, and each platform's bot on a fresh archive."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.fakezotero import FakeZotero
from tests.zotero.command_rooms import PLATFORMS, ROOMS, SEALING_KEY, Room, fake_zotero


@pytest.fixture
def zotero() -> Iterator[FakeZotero]:
    """The fake Zotero of the command tests (tests/zotero/command_rooms.py)."""
    with fake_zotero() as fake:
        yield fake


@pytest.fixture(params=PLATFORMS)
def room(request: pytest.FixtureRequest, zotero: FakeZotero, sqlite_url: str) -> Iterator[Room]:
    """Each platform's bot with PAPERCLUB_SECRET_KEY set, on a fresh archive."""
    with ROOMS[request.param](url=sqlite_url, zotero_url=zotero.url, secret=SEALING_KEY) as made:
        yield made
