"""The console's metrics, from the real console plug-in on the real wiring: the post it makes at
start, votes typed at the prompt (their own source), replies and searches."""

from __future__ import annotations

import io
from collections.abc import Iterator

import pytest
from rich.console import Console as RichConsole

from bot.console.plugin import ConsolePlatform
from bot.console.repl import handle_line
from bot.db.database import Database
from tests.console.on_wiring import console_on_wiring
from tests.metrics.reading import changes, observed, read, totals
from tests.services.conftest import load_sample
from tests.slack.conftest import MONDAY_9, FakeClock


@pytest.fixture
def console(sqlite_url: str) -> Iterator[ConsolePlatform]:
    """The console plug-in on the real wiring, printing to a string."""
    database = Database(url=sqlite_url)
    load_sample(database)
    terminal = RichConsole(file=io.StringIO(), width=200)
    before = read()
    with console_on_wiring(database=database, terminal=terminal, clock=FakeClock(MONDAY_9)) as (
        _wiring,
        platform,
    ):
        # Opening the console posts today's paper at once.
        assert totals(moved=changes(before=before, after=read())) == {
            "paperclub_posts_total{outcome=posted,platform=console}": 1
        }
        yield platform


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
