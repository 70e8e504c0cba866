"""A hostile archive through every console message (daily post, yesterday's line, weekly recap,
queue, top, skip, add, search and its next page, help, admin replies, errors), asserted on what
the terminal received: no markup of the data is interpreted (no hyperlink, no style, no emoji
code), nothing raises, and every title a person wrote is shown whole on one line."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta

import pytest
from rich.console import Console as RichConsole

from bot.console.plugin import ConsolePlatform
from bot.console.render import to_rich
from bot.console.repl import handle_line
from bot.db.database import Database
from bot.messages import Code, Strong, line, message
from bot.runtime.wiring import Wiring
from bot.services import recap
from tests.console.on_wiring import console_on_wiring
from tests.hostile.archive import COMMENT, TITLES, import_hostile
from tests.services.conftest import load_sample
from tests.slack.conftest import MONDAY_9, FakeClock

# Terminal markup only rich would act on: emoji codes and a trailing backslash.
CONSOLE_EXTRA = " :fire: :thumbsup: \\"
TYPED_ADD = "https://example.org/x <!channel> [link=https://evil.example]Read[/link] [/] :fire:"
OSC8_HYPERLINK = "\x1b]8;"
ANSI = re.compile(r"\x1b\[[0-9;]*m")


@dataclass
class Terminal:
    """A colour terminal wide enough that no title wraps, recording what it shows."""

    raw: io.StringIO
    console: RichConsole

    def text(self) -> str:
        """What a person reads: the output without colour codes."""
        return ANSI.sub("", self.raw.getvalue())


@pytest.fixture
def terminal() -> Terminal:
    """Colours and hyperlinks on, so that any interpreted markup shows as escape codes."""
    raw = io.StringIO()
    console = RichConsole(
        file=raw,
        width=5000,
        force_terminal=True,
        color_system="truecolor",
        highlight=False,
        emoji=False,
    )
    return Terminal(raw=raw, console=console)


@pytest.fixture
def console(sqlite_url: str, terminal: Terminal) -> Iterator[tuple[Wiring, ConsolePlatform]]:
    """The console plug-in on the real wiring, printing to the recording terminal."""
    import_hostile(url=sqlite_url, now=MONDAY_9, extra=CONSOLE_EXTRA)
    database = Database(url=sqlite_url)
    load_sample(database)

    with console_on_wiring(
        database=database, terminal=terminal.console, clock=FakeClock(MONDAY_9)
    ) as (wiring, platform):
        yield wiring, platform


def _type(platform: ConsolePlatform, line: str) -> None:
    """What the person types at the prompt."""
    handle_line(app=platform.app, line=line)


def test_console_shows_hostile_data_as_typed(
    console: tuple[Wiring, ConsolePlatform], terminal: Terminal
) -> None:
    wiring, platform = console
    clock = wiring.clock
    assert isinstance(clock, FakeClock)
    _type(platform, "+1")
    _type(platform, COMMENT)
    clock.at = MONDAY_9 + timedelta(days=1, hours=2)
    wiring.sweep()  # Tuesday's post, with yesterday's line carrying the hostile title
    for command in (
        "help",
        "queue",
        "top week",
        "skip",
        f"add {TYPED_ADD}",
        "schedule 09:00 [bold]x[/bold]",
        "pause",
        "resume",
        "frobnicate [/] :fire:",
        "recap fri 16:00",
        "search quokka",
        "search wombat",
    ):
        _type(platform, f"/paperclub {command}")
    _type(platform, "more")
    friday = MONDAY_9 + timedelta(days=4, hours=9)
    assert recap.send_due_recaps(poster=wiring.posters["console"], now=friday) == 1

    raw, text = terminal.raw.getvalue(), terminal.text()
    assert OSC8_HYPERLINK not in raw  # no [link=…] of the data became a hyperlink
    assert "🔥" not in text  # no emoji code of the data became an emoji
    lines = text.splitlines()
    title = TITLES[0] + CONSOLE_EXTRA
    # The first title, whole on one line: its daily post, yesterday's line, the recap, search.
    assert sum(title in line for line in lines) >= 4, text[-3000:]
    assert any(TITLES[6] + CONSOLE_EXTRA in line for line in lines)  # search's second page
    assert any(COMMENT in line for line in lines)  # the comment, found by search
    assert any(TYPED_ADD.split(" ", 1)[1] in line for line in lines)  # add's title
    assert "Results 6–7 of 7" in text and "Type more for more results." in text
    assert "[bold]x[/bold]" in text and "frobnicate [/] :fire:" in text  # errors echo as typed


def test_more_pages_only_the_last_answer(
    console: tuple[Wiring, ConsolePlatform], terminal: Terminal
) -> None:
    _, platform = console
    _type(platform, "more")
    _type(platform, "/paperclub search wombat")
    _type(platform, "+1")  # a vote between keeps the page's button
    _type(platform, "MORE")
    _type(platform, "more")  # the last page has no button
    text = terminal.text()
    assert text.count("There is nothing more to show") == 2
    assert "Results 6–7 of 7 for “wombat”" in text
    assert "Saved your comment" not in text  # "more" is never a comment


def test_control_sequences_never_reach_a_comment_command_or_vote(
    console: tuple[Wiring, ConsolePlatform], terminal: Terminal
) -> None:
    _, platform = console
    _type(platform, "\x1b[A")  # Up then Enter, read without line editing
    _type(platform, "\x1b[A\x1b[B\x07")
    _type(platform, "   ")  # an empty line is simply nothing, not a control key
    assert terminal.text().count("Nothing saved: that line held only control keys") == 2
    _type(platform, "+1\x1b[D")
    _type(platform, "\x1b]0;pwned\x07\x1b[31mred alert\x1b[0m")
    _type(platform, "/paperclub search red\x1b[C")
    text = terminal.text()
    assert "👍 1 · 👎 0" in text
    assert text.count("Saved your comment") == 1
    # The comment as stored, found by search: cleaned, with no title or colour left in it.
    assert "“you: red alert”\n" in text and "pwned" not in text


def test_a_message_carrying_escape_sequences_prints_none_of_them() -> None:
    # What a hostile feed's error text or a title could carry into a notice: the terminal
    # gets the words, never the sequences (a title change, a cleared screen, a bell).
    raw = io.StringIO()
    screen = RichConsole(file=raw, force_terminal=True, width=200)
    said = message(line("a\x1b]0;pwned\x07b ", Strong("\x1b[2Jc"), Code("d\x9bm"), " 👨‍👩‍👧"))
    screen.print(to_rich(message=said))
    shown = raw.getvalue()
    assert "\x07" not in shown and "\x9b" not in shown
    assert "\x1b]0;" not in shown and "\x1b[2J" not in shown
    assert "a]0;pwnedb" in shown and "[2Jc" in shown and "👨‍👩‍👧" in shown
