"""The console plug-in on the real wiring, printing to a test's terminal: what the console's
tests (and the scenarios that run on the console) start the bot with."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from types import SimpleNamespace

from rich.console import Console as RichConsole

from bot.config.settings import Settings
from bot.console.plugin import ConsolePlatform, open_console
from bot.db.database import Database
from bot.ports import Clock
from bot.runtime.wiring import Wiring
from bot.services.club import Club
from tests.slack.conftest import closed_lookups


@contextmanager
def console_on_wiring(
    *, database: Database, terminal: RichConsole, clock: Clock, settings: Settings | None = None
) -> Iterator[tuple[Wiring, ConsolePlatform]]:
    """The wiring with the console as its one platform (opening it posts today's paper), on
    `database` (disposed of at the end) and `settings` (by default: the database's URL and
    closed look-ups)."""

    def build(*, settings: Settings, club: Club, mode: str) -> ConsolePlatform:
        """The plug-in's own start-up, on the test's terminal."""
        return open_console(club=club, terminal=terminal)

    plugin = SimpleNamespace(
        NAME="console",
        configured=lambda *, settings: True,
        missing=lambda *, settings, mode: [],
        build=build,
    )
    chosen = settings or Settings(database_url=database.url, **closed_lookups())
    try:
        wiring = Wiring(settings=chosen, database=database, clock=clock, plugins=[plugin])
        try:
            platform = wiring.platforms["console"]
            assert isinstance(platform, ConsolePlatform)
            yield wiring, platform
        finally:
            wiring.close()
    finally:
        database.dispose()
