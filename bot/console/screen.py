"""The terminal's output while the person may be typing a line.

Other threads print too: the scheduler's daily post, a log line from the enricher. Written
straight to the terminal, their text would land in the middle of the line being typed and the
line editor would no longer know what is on the screen. While a line is being edited, their
output is held here instead; the main thread writes it above the prompt between two keys and
has the line drawn again under it, cursor where it was."""

from __future__ import annotations

import io
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import IO, Protocol


class Display(Protocol):
    """The line editor's view of the line being typed."""

    def clear(self) -> None:
        """Erase the prompt and the line from the screen (the cursor at the start of its row)."""

    def restore(self) -> None:
        """Draw the prompt and the line again, the cursor where it was in the line."""


class Screen:
    """Output of every thread, held while the main thread edits a line."""

    def __init__(self) -> None:
        """Nothing held; the thread that makes the Screen is the one that edits lines."""
        self._lock = threading.Lock()
        self._held: list[tuple[IO[str], str]] = []
        self._editor = threading.get_ident()
        self._wake: Callable[[], None] | None = None

    def file(self, *, stream: IO[str]) -> ScreenFile:
        """A file that writes to `stream` through this Screen (for rich and the log handler)."""
        return ScreenFile(screen=self, stream=stream)

    def write(self, *, stream: IO[str], text: str) -> None:
        """Write now, or hold the text and wake the editing thread when a line is being edited
        by another thread than this one."""
        with self._lock:
            if self._wake is not None and threading.get_ident() != self._editor:
                self._held.append((stream, text))
                self._wake()
                return
        stream.write(text)
        stream.flush()

    @contextmanager
    def editing(self, *, wake: Callable[[], None]) -> Iterator[None]:
        """Hold other threads' output while the block edits a line; `wake` asks the editing
        thread to look (it calls `drain`). Whatever is still held at the end is written then,
        under the line just entered."""
        with self._lock:
            self._wake = wake
        try:
            yield
        finally:
            with self._lock:
                self._wake = None
                held, self._held = self._held, []
            _write(held=held)

    def drain(self, *, display: Display) -> None:
        """On the editing thread, between two keys: the held output above the line."""
        with self._lock:
            held, self._held = self._held, []
        if not held:
            return
        display.clear()
        _write(held=held)
        stream, text = held[-1]
        if not text.endswith("\n"):
            stream.write("\n")
            stream.flush()
        display.restore()


def _write(*, held: list[tuple[IO[str], str]]) -> None:
    """Write held text in the order it came."""
    for stream, text in held:
        stream.write(text)
        stream.flush()


class ScreenFile(io.TextIOBase):
    """A text file whose writes go through a Screen to the real stream."""

    def __init__(self, *, screen: Screen, stream: IO[str]) -> None:
        """Write to `stream` through `screen`."""
        super().__init__()
        self._screen = screen
        self.stream = stream

    def write(self, text: str, /) -> int:
        """Write (or hold) the text; all of it is taken."""
        self._screen.write(stream=self.stream, text=text)
        return len(text)

    def flush(self) -> None:
        """Every write is flushed (or held) as it is made."""

    def isatty(self) -> bool:
        """Whether the real stream is a terminal (rich asks, for colours)."""
        return self.stream.isatty()

    def fileno(self) -> int:
        """The real stream's descriptor."""
        return self.stream.fileno()
