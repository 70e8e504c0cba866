"""Issue 32's suggestions tray on the console: a terminal has no buttons, so each tray button
is shown as the command to type with its suggestion's number, and typing it decides (the same
decision as a click); a second one is told what became of it, another channel's number is
refused, and hostile titles are shown as typed, never as markup."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta

import pytest
from rich.console import Console as RichConsole

from bot.console.chat import KEY
from bot.console.plugin import ConsolePlatform
from bot.console.repl import handle_line
from bot.db.database import Database
from bot.domain import ChannelKey
from bot.messages import Button, Buttons, Message
from bot.runtime.wiring import Wiring
from bot.wording.suggestions import ADD
from tests.console.on_wiring import console_on_wiring
from tests.slack.conftest import MONDAY_9, FakeClock
from tests.slack.tray_support import load_short, numbers, post_trays, state_of, suggest

ANSI = re.compile(r"\x1b\[[0-9;]*m")
OSC8_HYPERLINK = "\x1b]8;"
TITLES = ("Sparse attention at scale", "Tiny recurrent nets")
MARKUP = "[link=https://evil.example]Read[/link] [bold]loud[/bold] :fire: [/] \\"
ELSEWHERE = ChannelKey(platform="slack", workspace="T0001", channel="C0001")
NOON = MONDAY_9 + timedelta(hours=4)  # past the console's post time (09:00 UTC by default)


@dataclass
class Terminal:
    """A colour terminal wide enough that no line wraps, recording what it shows."""

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
        file=raw, width=5000, force_terminal=True, color_system="truecolor", emoji=False
    )
    return Terminal(raw=raw, console=console)


@pytest.fixture
def console(sqlite_url: str, terminal: Terminal) -> Iterator[tuple[Wiring, ConsolePlatform]]:
    """The console plug-in on the real wiring, printing to the recording terminal."""
    database = Database(url=sqlite_url)
    load_short(database)  # a queue short enough that /paperclub queue shows its end

    with console_on_wiring(database=database, terminal=terminal.console, clock=FakeClock(NOON)) as (
        wiring,
        platform,
    ):
        yield wiring, platform


def _tray(
    wiring: Wiring, platform: ConsolePlatform, titles: tuple[str, ...] = TITLES
) -> dict[str, int]:
    """Suggestions found for #console and its tray printed; title -> number."""
    now = wiring.clock.now()
    suggest(uow=wiring.database, channel=KEY, titles=titles, now=now)
    assert post_trays(uow=wiring.database, chat=platform.chat, platform="console", now=now) == 1
    return numbers(uow=wiring.database, channel=KEY)


def _typed(platform: ConsolePlatform, terminal: Terminal, line: str) -> str:
    """Type a line at the prompt; what the terminal showed for it."""
    before = len(terminal.text())
    handle_line(app=platform.app, line=line)
    return terminal.text()[before:]


def test_each_button_is_the_command_to_type_and_typing_it_decides(
    console: tuple[Wiring, ConsolePlatform], terminal: Terminal
) -> None:
    wiring, platform = console
    shown = _tray(wiring, platform)
    add, hide = shown[TITLES[0]], shown[TITLES[1]]
    text = terminal.text()
    for number in (add, hide):
        assert f"Type /paperclub suggestions add {number} to add it to the queue." in text
        assert f"Type /paperclub suggestions hide {number} if it is not for us." in text

    added = _typed(platform, terminal, f"/paperclub suggestions add {add}")
    assert f"Added {TITLES[0]} to the queue" in added
    assert TITLES[0] in _typed(platform, terminal, "/paperclub queue")
    assert f"Hidden {TITLES[1]}" in _typed(
        platform, terminal, f"/paperclub suggestions hide {hide}"
    )

    again = _typed(platform, terminal, f"/paperclub suggestions add {hide}")
    assert f"{TITLES[1]} — 🙈 Not for us (you)." in again
    assert TITLES[1] not in _typed(platform, terminal, "/paperclub queue")
    state = _typed(platform, terminal, "/paperclub suggestions")  # the tray as it stands
    assert "✅ Added to the queue by you." in state and "🙈 Not for us (you)." in state
    assert "suggestions add" not in state  # nothing left to decide
    assert state_of(uow=wiring.database, channel=KEY, number=add) == "promoted"


def test_another_channels_number_is_refused(
    console: tuple[Wiring, ConsolePlatform], terminal: Terminal
) -> None:
    wiring, platform = console
    _tray(wiring, platform)
    suggest(uow=wiring.database, channel=ELSEWHERE, titles=("Theirs",), now=NOON, first=50)
    with wiring.database(write=False) as store:
        [theirs] = store.suggestions(channel=ELSEWHERE, states=("waiting",), limit=5)
    answer = _typed(platform, terminal, f"/paperclub suggestions add {theirs.id}")
    assert f"There is no suggestion #{theirs.id} here" in answer
    assert state_of(uow=wiring.database, channel=ELSEWHERE, number=theirs.id) == "waiting"


def test_hostile_titles_show_as_typed(
    console: tuple[Wiring, ConsolePlatform], terminal: Terminal
) -> None:
    wiring, platform = console
    title = "<!channel> @everyone " + MARKUP + " 🧪 " + "x" * 10_000
    [number] = _tray(wiring, platform, titles=(title,)).values()
    added = _typed(platform, terminal, f"/paperclub suggestions add {number}")
    raw, text = terminal.raw.getvalue(), terminal.text()
    assert OSC8_HYPERLINK not in raw and "🔥" not in text
    assert MARKUP in text and "Added <!channel> @everyone " + MARKUP in added
    assert state_of(uow=wiring.database, channel=KEY, number=number) == "promoted"


def test_a_terminal_has_no_history_to_find_a_tray_in(
    console: tuple[Wiring, ConsolePlatform], terminal: Terminal
) -> None:
    wiring, platform = console
    number = _tray(wiring, platform)[TITLES[0]]
    shown = Message(
        blocks=(Buttons(buttons=(Button(label="Add", action=ADD, value=str(number)),)),)
    )
    since = wiring.clock.now() - timedelta(days=1)

    # Its history is this process's, whose notices never fail: nothing is left to be found.
    assert platform.chat.find_notice(channel=KEY, message=shown, since=since) is None
    assert TITLES[0] in terminal.text()
