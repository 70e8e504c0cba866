"""A background thread that runs one pass of work, waits `poll` seconds (or until woken), and
again, until closed: the loop under the watches' reader and the Zotero sync.

A pass that finds the archive unavailable is logged as a wait, any other failure with its
traceback; either way the next pass comes. Passes are counted, so tests (and the CLI) wait for
one instead of sleeping.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from bot.ports import ArchiveUnavailable

log = logging.getLogger("paperclub")


class PollingThread:
    """Runs `step` on a daemon thread named `name` every `poll` seconds; `what` names the work
    in the log ("reading the watches")."""

    def __init__(self, *, name: str, what: str, step: Callable[[], None], poll: float) -> None:
        """Nothing runs before start()."""
        self.what, self.step, self.poll = what, step, poll
        self.rounds = 0  # finished passes, for tests that wait for one
        self.passed = threading.Condition()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name=name, daemon=True)

    @property
    def stopping(self) -> bool:
        """Whether close() was called (a long pass stops between two of its steps)."""
        return self._stop.is_set()

    def start(self) -> None:
        """Run: a first pass at once (work a stopped process left), then every poll."""
        self._thread.start()

    def wake(self) -> None:
        """Run a pass now (new work was just written), or as soon as the one running ends."""
        self._wake.set()

    def _loop(self) -> None:
        """Pass, wait; until closed."""
        while not self._stop.is_set():
            self._wake.clear()
            try:
                self.step()
            except ArchiveUnavailable:
                log.warning("%s waits: the archive is unavailable", self.what)
            except Exception:
                log.exception("%s failed; trying again later", self.what)
            with self.passed:
                self.rounds += 1
                self.passed.notify_all()
            self._wake.wait(self.poll)

    def wait_rounds(self, *, count: int, timeout: float) -> bool:
        """Wait until `count` passes have finished (for tests and the CLI); whether they did."""
        with self.passed:
            return self.passed.wait_for(lambda: self.rounds >= count, timeout=timeout)

    def close(self, *, timeout: float) -> None:
        """Stop after the pass in flight, waiting at most `timeout` seconds for it."""
        self._stop.set()
        self._wake.set()
        if self._thread.is_alive():
            self._thread.join(timeout=timeout)
