"""Reading what the person types, a line at a time, without ever blocking a signal out.

input() writes its prompt and then blocks in read(); a Ctrl-C that lands between the two is
handled at C level, read() is not interrupted, and the prompt waits for ever (the suite hit
this under load: pexpect sends Ctrl-C the moment the prompt shows). Here the wait is a
select() with a timeout, so Python looks at pending signals (and at `stop`) several times a
second; bytes are decoded incrementally, so a pasted block of lines is read line by line.
"""

from __future__ import annotations

import codecs
import os
import select
import sys
from threading import Event
from typing import TextIO

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
