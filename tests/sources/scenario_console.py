"""The scenario on the console: the real wiring with the console plug-in printing to a
recorded terminal; the person at it types /paperclub commands, and a tray's buttons are the
commands it prints."""

from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from rich.console import Console as RichConsole

from bot.config.settings import Settings
from bot.console.chat import KEY as CONSOLE_KEY
from bot.console.plugin import ConsolePlatform
from bot.console.repl import handle_line
from bot.db.database import Database
from bot.domain import ChannelKey
from bot.runtime.wiring import Wiring
from bot.wording.console import TYPED_COMMANDS
from bot.wording.suggestions import ADD, ADD_LABEL, HIDE, HIDE_LABEL
from tests.console.on_wiring import console_on_wiring
from tests.slack.conftest import (
    FakeClock,
    closed_lookups,
)
from tests.sources.scenario_support import (
    BEFORE,
    BERLIN,
    NINE,
    WEEKDAYS,
    at_morning,
    import_read_paper,
)


@dataclass
class ConsoleRoom:
    """The console: what the person types at the prompt, and the terminal's text."""

    wiring: Wiring
    clock: FakeClock
    database: Database
    platform: ConsolePlatform
    raw: io.StringIO
    key: ChannelKey = CONSOLE_KEY

    def command(self, text: str) -> str:
        """Type `/paperclub TEXT`; what the terminal printed for it."""
        start = len(self.raw.getvalue())
        handle_line(app=self.platform.app, line=f"/paperclub {text}")
        return self.raw.getvalue()[start:]

    def shown(self, *, message_id: str) -> str:
        """A terminal keeps no messages apart: everything it printed."""
        return self.raw.getvalue()

    def click(self, *, message_id: str, suggestion_id: int, label: str) -> str:
        """A button on the console is the command the tray prints for it: type that."""
        action = {ADD_LABEL: ADD, HIDE_LABEL: HIDE}[label]
        typed = f"{TYPED_COMMANDS[action][0]} {suggestion_id}"
        assert typed in self.raw.getvalue()  # the tray said what to type
        start = len(self.raw.getvalue())
        handle_line(app=self.platform.app, line=typed)
        return self.raw.getvalue()[start:]

    def offered(self, *, message_id: str) -> set[str] | None:
        """A terminal prints; it redraws nothing in place."""
        return None

    def harmful(self, *, message_id: str, titles: list[str]) -> list[str]:
        """The titles not printed whole, as typed, on one line (a terminal pings nobody)."""
        lines = self.raw.getvalue().splitlines()
        return [t for t in titles if not any(t in line for line in lines)]


@contextmanager
def console_room(*, url: str) -> Iterator[ConsoleRoom]:
    """The console on the real wiring; its start posts the paper read before the fortnight."""
    database = Database(url=url)
    import_read_paper(database=database)
    raw = io.StringIO()
    terminal = RichConsole(file=raw, width=5000, highlight=False, emoji=False)

    clock = FakeClock(at_morning(day=BEFORE))
    settings = Settings(
        database_url=url, post_time=NINE, timezone=BERLIN, days=WEEKDAYS, **closed_lookups()
    )
    with console_on_wiring(
        database=database, terminal=terminal, clock=clock, settings=settings
    ) as (wiring, platform):
        yield ConsoleRoom(wiring=wiring, clock=clock, database=database, platform=platform, raw=raw)
