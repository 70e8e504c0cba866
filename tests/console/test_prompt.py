"""The console's line reader on a real pipe: lines as typed or pasted, UTF-8 split across
reads, the end of input, and a wait that Python can interrupt (input() cannot)."""

from __future__ import annotations

import contextlib
import io
import os
import threading
from collections.abc import Iterator

import pytest

from bot.console.prompt import LineReader


@pytest.fixture
def pipe() -> Iterator[tuple[int, int]]:
    """A pipe: what the person types goes in at the write end."""
    read_end, write_end = os.pipe()
    yield read_end, write_end
    for fd in (read_end, write_end):
        with contextlib.suppress(OSError):  # the write end may be closed: the end of input
            os.close(fd)


def test_pasted_lines_come_one_at_a_time(pipe: tuple[int, int]) -> None:
    read_end, write_end = pipe
    out = io.StringIO()
    reader = LineReader(fd=read_end, out=out)
    snowman = "☃ <!here> [bold]x[/bold]".encode()
    os.write(write_end, b"+1\r\nfirst " + snowman[:2])  # a character split across two reads
    os.write(write_end, snowman[2:] + b"\nlast without newline")
    os.close(write_end)
    stop = threading.Event()
    assert reader.read_line(prompt="you> ", stop=stop) == "+1"
    assert reader.read_line(prompt="you> ", stop=stop) == "first ☃ <!here> [bold]x[/bold]"
    assert reader.read_line(prompt="you> ", stop=stop) == "last without newline"
    with pytest.raises(EOFError):
        reader.read_line(prompt="you> ", stop=stop)
    assert out.getvalue() == "you> " * 4


def test_the_wait_ends_when_stop_is_set(pipe: tuple[int, int]) -> None:
    read_end, _ = pipe
    reader = LineReader(fd=read_end, out=io.StringIO())
    stop = threading.Event()
    # Nothing is ever typed: input() would block in read() for ever; this wait looks up.
    timer = threading.Timer(0.05, stop.set)
    timer.start()
    try:
        with pytest.raises(EOFError):
            reader.read_line(prompt="you> ", stop=stop)
    finally:
        timer.cancel()
