"""Issue 30 on the console: a comment or a vote typed while the archive cannot write gets the
same "not saved" words as on Slack and Discord, and the console reads the next line (no
traceback); once the archive is back, the same line is kept. The archive is made unwritable
for real: its SQLite file's write lock held by another connection (as in
tests/slack/test_slack_outage.py), or the file itself gone from where the bot opens it."""

from __future__ import annotations

import io
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from rich.console import Console as RichConsole

from bot.console.plugin import ConsolePlatform
from bot.console.repl import handle_line
from bot.db.database import Database
from bot.messages import as_plain
from bot.wording import console as console_words
from bot.wording import replies
from tests.archive_gone import archive_gone, sqlite_path
from tests.console.on_wiring import console_on_wiring
from tests.services.conftest import load_sample
from tests.slack.conftest import MONDAY_9, FakeClock

COMMENT = "A point about <!channel> 👨‍👩‍👧 and *this*"


@pytest.fixture
def terminal() -> io.StringIO:
    """What the console prints."""
    return io.StringIO()


@pytest.fixture
def console(sqlite_url: str, terminal: io.StringIO) -> Iterator[tuple[Database, ConsolePlatform]]:
    """The console plug-in on the real wiring, today's paper posted, printing to `terminal`."""
    database = Database(url=sqlite_url)
    load_sample(database)
    screen = RichConsole(file=terminal, width=5000, color_system=None, emoji=False)

    with console_on_wiring(database=database, terminal=screen, clock=FakeClock(MONDAY_9)) as (
        _wiring,
        platform,
    ):
        yield database, platform


def _count(database: Database, sql: str) -> int:
    """One number read by a connection of the test's own."""
    with sqlite3.connect(sqlite_path(database)) as connection:
        return int(connection.execute(sql).fetchone()[0])


@contextmanager
def _lock_held(database: Database) -> Iterator[None]:
    """The file's write lock held by another connection until the block ends."""
    holder = sqlite3.connect(sqlite_path(database), isolation_level=None)
    try:
        holder.execute("BEGIN IMMEDIATE")
        yield
        holder.execute("ROLLBACK")
    finally:
        holder.close()


def test_a_comment_and_a_vote_while_the_lock_is_held_say_not_saved_and_the_console_goes_on(
    console: tuple[Database, ConsolePlatform], terminal: io.StringIO
) -> None:
    database, platform = console
    comments = "SELECT count(*) FROM comments"
    with _lock_held(database):
        handle_line(app=platform.app, line=COMMENT)  # returns: the console reads on
        handle_line(app=platform.app, line="+1")
    shown = terminal.getvalue()
    assert as_plain(message=replies.NOT_SAVED) in shown
    assert as_plain(message=replies.VOTE_NOT_SAVED) in shown
    assert as_plain(message=console_words.COMMENT_SAVED) not in shown
    assert "Traceback" not in shown
    assert _count(database, comments) == 0
    assert _count(database, "SELECT count(*) FROM votes") == 0
    # The archive back: the same line is kept, once.
    handle_line(app=platform.app, line=COMMENT)
    assert as_plain(message=console_words.COMMENT_SAVED) in terminal.getvalue()
    assert _count(database, comments) == 1


def test_with_the_archive_gone_every_line_gets_an_answer(
    console: tuple[Database, ConsolePlatform], terminal: io.StringIO
) -> None:
    database, platform = console
    handle_line(app=platform.app, line="/paperclub search the")
    before = terminal.getvalue()
    assert "Type more for more results." in before
    with archive_gone(database):
        handle_line(app=platform.app, line="more")  # the next page cannot be read
    shown = terminal.getvalue()[len(before) :]
    assert shown == as_plain(message=replies.NOT_AVAILABLE) + "\n"
    handle_line(app=platform.app, line="more")  # back: the same button asks the page again
    assert "Results 6–" in terminal.getvalue()[len(before) :]
    with archive_gone(database):
        for line in (COMMENT, "+1", "/paperclub queue"):
            handle_line(app=platform.app, line=line)
    shown = terminal.getvalue()[len(before) :]
    assert shown.count(as_plain(message=replies.NOT_SAVED)) == 2  # the comment, the command
    assert as_plain(message=replies.VOTE_NOT_SAVED) in shown
    assert "Traceback" not in shown and _count(database, "SELECT count(*) FROM comments") == 0
    handle_line(app=platform.app, line=COMMENT)  # back: kept, once
    assert _count(database, "SELECT count(*) FROM comments") == 1
