"""Did you mean on the console: a misspelt search runs corrected and says so; one that finds
little says the corrected command to type, and typing it runs the corrected search."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator

import pytest
from rich.console import Console as RichConsole

from bot.console.plugin import ConsolePlatform
from bot.console.repl import handle_line
from bot.db.database import Database
from tests.console.on_wiring import console_on_wiring
from tests.services.conftest import load_sample
from tests.slack.conftest import MONDAY_9, FakeClock

ANSI = re.compile(r"\x1b\[[0-9;]*m")


@pytest.fixture
def shown(sqlite_url: str) -> Iterator[tuple[ConsolePlatform, io.StringIO]]:
    """The console on the real wiring over the sample list, and what its terminal shows."""
    raw = io.StringIO()
    terminal = RichConsole(file=raw, width=500, force_terminal=True, highlight=False, emoji=False)
    database = Database(url=sqlite_url)
    load_sample(database)
    with console_on_wiring(database=database, terminal=terminal, clock=FakeClock(MONDAY_9)) as (
        _,
        platform,
    ):
        yield platform, raw


def test_misspelt_searches_on_the_console(shown: tuple[ConsolePlatform, io.StringIO]) -> None:
    platform, raw = shown
    handle_line(app=platform.app, line="/paperclub search pipline paralelism")
    text = ANSI.sub("", raw.getvalue())
    assert "Showing results for “pipeline parallelism” (no match for “pipline paralelism”)" in text
    handle_line(app=platform.app, line="/paperclub search homology pipline")
    text = ANSI.sub("", raw.getvalue())
    assert "Did you mean /paperclub search homology pipeline?" in text
    handle_line(app=platform.app, line="/paperclub search homology pipeline")
    text = ANSI.sub("", raw.getvalue())
    assert "for “homology pipeline”" in text
