"""A direct message on the console: the terminal's one person reads it, marked as theirs, in
the same place as everything else; its buttons become the ones to type."""

from __future__ import annotations

import io

from rich.console import Console as RichConsole

from bot.console.chat import KEY, USER, ConsoleChat
from bot.messages import Button, Buttons, line, message
from bot.wording import console as console_words


def test_a_direct_message_is_printed_marked_for_the_person_at_the_terminal() -> None:
    raw = io.StringIO()
    chat = ConsoleChat(console=RichConsole(file=raw, width=200, color_system=None, emoji=False))
    said = message(
        line("You present ", "“Attention [bold]is[/bold] <!channel>”", " on Thursday."),
        Buttons(buttons=(Button(label="Swap", action="session_swap", value="7"),)),
    )

    first = chat.send_direct(channel=KEY, user=USER, message=said)
    assert chat.pressable == {"session_swap": "7"}
    second = chat.send_direct(channel=KEY, user=USER, message=message("Reminder."))

    lines = raw.getvalue().splitlines()
    assert lines[0] == console_words.DIRECT_FOR_YOU
    # rich's markup is never read in data: the brackets show as typed.
    assert "You present “Attention [bold]is[/bold] <!channel>” on Thursday." in lines[1]
    assert raw.getvalue().count(console_words.DIRECT_FOR_YOU) == 2
    assert first and second and first < second  # fresh ids, increasing
    assert chat.pressable == {}  # the latest message's buttons (none) are the ones to type
