"""Line editing at a terminal with the standard library's readline (GNU readline or libedit,
whichever this Python was built with): arrows, Home/End, Ctrl-A/E and the rest of its
bindings (and the person's ~/.inputrc), and Up/Down through this run's lines.

input() waits in readline's select(), which looks at Python's signals only when a signal
interrupts it. A ticker thread interrupts it several times a second: a Ctrl-C that landed
just before the wait is raised then (pexpect sends one the moment the prompt shows), `stop`
ends the wait, and what other threads printed meanwhile is written above the prompt. The
ticker's signal is SIGURG, sent to the main thread alone; its default action is to ignore it,
so one arriving after the reader closed changes nothing.
"""

from __future__ import annotations

import contextlib
import ctypes
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from threading import Event
from types import FrameType, ModuleType
from typing import Any, TextIO

from bot.console.screen import Screen
from bot.console.typed import cleaned

WAKE = signal.SIGURG
TICK_SECONDS = 0.2
# The ticker must not take the stop signals: the kernel would hand it a Ctrl-C.
STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM}


def _symbol(*, library: ctypes.CDLL, name: str) -> Callable[[], Any] | None:
    """A function of the line editor's library, or None when this one lacks it."""
    try:
        found: Callable[[], Any] = getattr(library, name)
    except AttributeError:
        return None
    return found


class ReadlineDisplay:
    """The line being typed, drawn by readline itself when it can (GNU readline 7 or later:
    every row of a long line cleared, and the cursor put back where it was), else by hand."""

    def __init__(self, *, readline: ModuleType, out: TextIO) -> None:
        """Find readline's drawing functions through the module that links it."""
        self._readline, self._out = readline, out
        self.prompt = ""
        try:
            library = ctypes.CDLL(getattr(readline, "__file__", None))
            self._flush: Callable[[Any], Any] | None = ctypes.CDLL(None).fflush
        except (OSError, AttributeError):
            self._clear = self._redraw = self._flush = None
            return
        self._clear = _symbol(library=library, name="rl_clear_visible_line")
        self._redraw = _symbol(library=library, name="rl_forced_update_display")

    def _c_flush(self) -> None:
        """Readline writes through C's stdio: flush it before Python writes after it."""
        if self._flush is not None:
            self._flush(None)

    def clear(self) -> None:
        """Erase the prompt and the line."""
        self._out.flush()
        if self._clear is not None:
            self._clear()
            self._c_flush()
        else:
            self._out.write("\r\x1b[K")
            self._out.flush()

    def restore(self) -> None:
        """Draw the prompt and the line again."""
        self._out.flush()
        if self._redraw is not None:
            self._redraw()
            self._c_flush()
        else:  # the cursor ends at the end of the line, wherever it was
            self._out.write(self.prompt + self._readline.get_line_buffer())
            self._out.flush()


class EditingReader:
    """Lines typed at a terminal, edited with readline; history for this run (cleaned lines
    only, a repeat of the last one not kept twice)."""

    def __init__(self, *, screen: Screen, out: TextIO = sys.stdout) -> None:
        """Set readline up (imported here: importing it prepares the terminal's line editor)."""
        import readline

        readline.set_auto_history(False)
        if "libedit" not in (readline.__doc__ or ""):  # libedit's bind syntax is its own
            # A pasted block is read line by line, as from a pipe: each line a comment or a
            # command of its own, never one line with the rest glued on.
            readline.parse_and_bind("set enable-bracketed-paste off")
        hook = getattr(readline, "set_pre_input_hook", None) or readline.set_startup_hook
        hook(self._started)
        self._readline = readline
        self._screen = screen
        self._display = ReadlineDisplay(readline=readline, out=out)
        self._main = threading.get_ident()
        self._stop: Event | None = None
        self._waiting = False  # readline shows the prompt and waits for keys
        # A Ctrl-C not yet seen by the reader: it is raised from the wait (`_woken`), never
        # from the SIGINT handler, which may run inside readline's hook.
        self._interrupted = False
        self._closed = Event()

    @classmethod
    @contextlib.contextmanager
    def opened(cls, *, screen: Screen) -> Iterator[EditingReader]:
        """A reader with its wake-up handler and ticker, both gone at the end."""
        reader = cls(screen=screen)
        previous = signal.signal(WAKE, reader._woken)
        previous_interrupt = signal.signal(signal.SIGINT, reader._interrupt)
        held = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
        try:
            ticker = threading.Thread(target=reader._tick, name="console-ticker", daemon=True)
            ticker.start()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)
        try:
            yield reader
        finally:
            reader._closed.set()
            ticker.join()
            signal.signal(WAKE, previous)
            signal.signal(signal.SIGINT, previous_interrupt)

    def _started(self) -> None:
        """readline's hook: the prompt is shown and keys are awaited."""
        self._waiting = True

    def _interrupt(self, _signum: int, _frame: FrameType | None) -> None:
        """Ctrl-C: remembered, and raised as KeyboardInterrupt from the wait (`_woken`, woken
        at once). Raised here, it could land in readline's pre-input hook, whose exception
        CPython keeps set while the wait raises another: a SystemError, not a goodbye."""
        self._interrupted = True
        self._wake()

    def _wake(self) -> None:
        """Interrupt the main thread's wait (it then runs `_woken`)."""
        signal.pthread_kill(self._main, WAKE)

    def _tick(self) -> None:
        """Interrupt the wait several times a second while a line is being read."""
        while not self._closed.wait(TICK_SECONDS):
            if self._waiting or self._interrupted:
                self._wake()

    def _woken(self, _signum: int, _frame: FrameType | None) -> None:
        """On the main thread, between two keys: end the wait once `stop` is set, else write
        what other threads printed above the line."""
        if self._interrupted:
            raise KeyboardInterrupt  # a Ctrl-C: raised from the wait
        if not self._waiting:
            return
        if self._stop is not None and self._stop.is_set():
            raise EOFError
        self._screen.drain(display=self._display)

    def read_line(self, *, prompt: str, stop: Event) -> str:
        """The next line as typed (escape sequences included: the caller cleans it); EOFError
        on Ctrl-D or once `stop` is set, KeyboardInterrupt on Ctrl-C."""
        if stop.is_set():
            raise EOFError
        self._stop, self._display.prompt = stop, prompt
        with self._screen.editing(wake=self._wake):
            try:
                line = input(prompt)
            except KeyboardInterrupt:
                self._interrupted = False  # seen: the caller says goodbye
                raise
            finally:  # before held output is written below the line: the wait is over
                self._waiting = False
        self._remember(line=cleaned(line=line))
        return line

    def _remember(self, *, line: str) -> None:
        """Keep the line for Up and Down, unless it is empty or the same as the last."""
        length = self._readline.get_current_history_length()
        if line and (length == 0 or self._readline.get_history_item(length) != line):
            self._readline.add_history(line)
