"""Reading what the person types, a line at a time, without ever blocking a signal out: with
line editing at a terminal (bot.console.editing), as the bytes come from a pipe.

input() writes its prompt and then blocks in read(); a Ctrl-C that lands between the two is
handled at C level, read() is not interrupted, and the prompt waits for ever (the suite hit
this under load: pexpect sends Ctrl-C the moment the prompt shows). Here the wait is a
select() with a timeout, so Python looks at pending signals (and at `stop`) several times a
second; bytes are decoded incrementally, so a pasted block of lines is read line by line.
"""

from __future__ import annotations

import codecs
import importlib.util
import logging
import os
import select
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from threading import Event
from typing import IO, Protocol, TextIO, cast

from rich.console import Console as RichConsole

from bot.console.editing import EditingReader
from bot.console.screen import Screen

POLL_SECONDS = 0.2


class LineReader:
    """Lines from a file descriptor (the terminal), decoded as UTF-8."""

    def __init__(self, *, fd: int, out: TextIO = sys.stdout) -> None:
        """Read from `fd`, write prompts to `out`."""
        self._fd = fd
        self._out = out
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._pending = ""
        self._ended = False

    def read_line(self, *, prompt: str, stop: Event) -> str:
        """The next line without its newline; EOFError at the end of input or once `stop` is
        set, KeyboardInterrupt on Ctrl-C as input() would raise it."""
        self._out.write(prompt)
        self._out.flush()
        while "\n" not in self._pending:
            if self._ended or stop.is_set():
                if self._pending and self._ended:
                    line, self._pending = self._pending, ""
                    return line
                raise EOFError
            ready, _, _ = select.select([self._fd], [], [], POLL_SECONDS)
            if not ready:
                continue
            chunk = os.read(self._fd, 4096)
            self._ended = not chunk
            self._pending += self._decoder.decode(chunk, final=not chunk)
        line, _, self._pending = self._pending.partition("\n")
        return line.removesuffix("\r")


class Reader(Protocol):
    """Where the console's lines come from."""

    def read_line(self, *, prompt: str, stop: Event) -> str:
        """The next line; EOFError at the end, KeyboardInterrupt on Ctrl-C."""
        ...


@contextmanager
def opened_reader(*, terminal: RichConsole) -> Iterator[Reader]:
    """Line editing when both ends are a terminal; lines as they come otherwise (a pipe, a
    test, `paperclub run | tee`). While lines are edited, the terminal's output and the log's
    go through a Screen, so that another thread's line is written above the prompt, not
    through the line being typed."""
    # A Python built without readline reads lines as they come, too.
    editing = importlib.util.find_spec("readline") is not None
    if not (editing and sys.stdin.isatty() and sys.stdout.isatty()):
        yield LineReader(fd=sys.stdin.fileno())
        return
    screen = Screen()
    handlers = [
        handler
        for handler in logging.getLogger().handlers
        if isinstance(handler, logging.StreamHandler) and handler.stream in (sys.stderr, sys.stdout)
    ]
    streams = [handler.setStream(screen.file(stream=handler.stream)) for handler in handlers]
    printed_to = terminal.file
    # A text file to rich in all but typeshed's name for it (IO[str] is no base class).
    terminal.file = cast(IO[str], screen.file(stream=printed_to))
    try:
        with EditingReader.opened(screen=screen) as reader:
            yield reader
    finally:
        terminal.file = printed_to
        for handler, stream in zip(handlers, streams, strict=True):
            handler.setStream(stream)
