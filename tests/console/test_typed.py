"""What reaches a comment, command or vote from the console: escape sequences and control
characters gone, everything else (markup, emoji, 10,000 characters) kept exactly."""

from __future__ import annotations

import pytest

from bot.console.typed import cleaned

ESC = "\x1b"


@pytest.mark.parametrize(
    ("typed", "kept"),
    [
        ("\x1b[A", ""),  # Up, read by a terminal without line editing
        ("\x1b[A\x1b[B\x1b[C\x1b[D\x1b[H\x1b[F\x1bOA\x1b[1;5C\x1b[3~\x1b[15~", ""),
        ("  \x1b[A \x07 ", ""),
        ("hello\x1b[D\x1b[Dx", "hellox"),
        ("+1\x1b[D", "+1"),
        ("\x1b[31mred\x1b[0m alert", "red alert"),  # colours
        ("\x9b31mred", "red"),  # the one-character CSI
        ("\x1b]0;a title\x07hi", "hi"),  # a window title, ended by BEL
        ("\x1b]8;;https://evil.example\x1b\\link\x1b]8;;\x1b\\", "link"),  # a hyperlink
        ("\x1bPdevice\x1b\\ok", "ok"),  # a device control string
        ("\x1b]52;c;cGFzdGU=", ""),  # a clipboard write cut off at the end of the line
        ("a\tb\x00c\x7fd\x85e", "a bcd e"),  # tab, NUL, DEL, NEL (a line break)
        ("one\r\ntwo\x0bthree", "one  two three"),  # a pasted break inside the line
        ("caf\udcc3\udca9", "caf\ufffd\ufffd"),  # bytes no UTF-8, as the C locale reads them
        ("\x1b", ""),
        ("/paperclub search x\x1b[2K", "/paperclub search x"),
    ],
)
def test_escape_sequences_and_control_characters_go(typed: str, kept: str) -> None:
    assert cleaned(line=typed) == kept


@pytest.mark.parametrize(
    "typed",
    [
        "<!channel> [bold]x[/bold] :fire: *bold* ☃ 👍🏽 👨‍👩‍👧 ‮reversed",
        "x" * 10_000,
        "[link=https://evil.example]Read[/link] \\",
    ],
)
def test_everything_else_is_kept_exactly(typed: str) -> None:
    assert cleaned(line=typed) == typed
    assert ESC not in cleaned(line=f"{ESC}[A{typed}{ESC}[B")
    assert cleaned(line=f"{ESC}[A{typed}{ESC}[B") == typed
