"""The console's metrics, from the real console plug-in on the real wiring: the post it makes at
start, votes typed at the prompt (their own source), replies and searches."""

from __future__ import annotations

import io
from collections.abc import Iterator
from types import SimpleNamespace

import pytest
from rich.console import Console as RichConsole

from bot.config.settings import Settings
from bot.console.plugin import ConsolePlatform, open_console
from bot.console.repl import handle_line
from bot.db.database import Database
from bot.runtime.wiring import Wiring
from bot.services.club import Club
from tests.metrics.reading import changes, observed, read, totals
from tests.services.conftest import load_sample
from tests.slack.conftest import MONDAY_9, FakeClock, free_port


@pytest.fixture
def console(sqlite_url: str) -> Iterator[ConsolePlatform]:
    """The console plug-in on the real wiring, printing to a string."""
    database = Database(url=sqlite_url)
    load_sample(database)
    terminal = RichConsole(file=io.StringIO(), width=200)

    def build(*, settings: Settings, club: Club, mode: str) -> ConsolePlatform:
        """The plug-in's own start-up, on the test's terminal."""
        return open_console(club=club, terminal=terminal)

    plugin = SimpleNamespace(
        NAME="console",
        configured=lambda *, settings: True,
        missing=lambda *, settings, mode: [],
        build=build,
    )
    settings = Settings(
        database_url=sqlite_url,
        lookup_timeout=1,
        # No test touches the internet: look-ups fail fast on a closed local port.
        arxiv_api_url=f"http://127.0.0.1:{free_port()}/api/query",
        crossref_api_url=f"http://127.0.0.1:{free_port()}",
    )
    before = read()
    wiring = Wiring(
        settings=settings, database=database, clock=FakeClock(MONDAY_9), plugins=[plugin]
    )
    try:
        # Opening the console posts today's paper at once.
        assert totals(moved=changes(before=before, after=read())) == {
            "paperclub_posts_total{outcome=posted,platform=console}": 1
        }
        platform = wiring.platforms["console"]
        assert isinstance(platform, ConsolePlatform)
        yield platform
    finally:
        wiring.close()
        database.dispose()


def test_typed_votes_and_replies_are_counted(console: ConsolePlatform) -> None:
    before = read()
    for line in ("+1", "👎", "👎", "A fine paper"):  # a vote, a change, a withdrawal, a reply
        handle_line(app=console.app, line=line)
    assert totals(moved=changes(before=before, after=read())) == {
        "paperclub_votes_total{platform=console,source=console}": 3,
        "paperclub_comments_total{action=new,platform=console}": 1,
    }


def test_searches_are_timed(console: ConsolePlatform) -> None:
    before = read()
    handle_line(app=console.app, line="/paperclub search pipeline")
    after = read()
    assert (
        observed(before=before, after=after, name="paperclub_search_seconds", platform="console")
        > 0
    )
    assert totals(moved=changes(before=before, after=after)) == {}
