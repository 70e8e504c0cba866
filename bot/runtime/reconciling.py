"""Reconciliation in the background: one thread per process that writes down what was asked
(a start, a new gateway session, a reconnect) and, on the process that leads (every process
on SQLite, the scheduler's leader among replicas), runs what is due.

A start is downtime too, and the platforms ask when their events begin to flow (one ask,
stamped then). Its own thread, because a read under Slack's tightest limits takes a minute a
page: the daily post, redraws and events never wait for it. Asking only queues (the Discord
loop or a socket thread may ask); the thread writes the ask and wakes at once, else looks
every `poll` seconds for what another replica asked.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from datetime import datetime

from bot.ports import ArchiveUnavailable, Chat, Clock
from bot.ports.readback import ReadBack
from bot.services.reconcile_run import Reconciler

log = logging.getLogger("paperclub")

POLL_SECONDS = 60.0


class ReconcileWorker:
    """Runs due reconciliations on a thread of its own."""

    def __init__(
        self,
        *,
        reconciler: Reconciler,
        clock: Clock,
        platforms: Callable[[], dict[str, Chat]],
        leading: Callable[[], bool],
        others_served: Callable[[], bool] = lambda: False,
        poll: float = POLL_SECONDS,
    ) -> None:
        """`platforms`: the Chats running here by platform name (read at each pass: they are
        built after this); `leading`: whether this process runs the work now;
        `others_served`: whether another replica has been running since before this process
        started (then this process's first ask per platform is dropped: the platforms' events
        went to that replica, and its own gaps are its own asks)."""
        self.reconciler, self.clock = reconciler, clock
        self.platforms, self.leading, self.poll = platforms, leading, poll
        self.others_served = others_served
        self._asked: list[tuple[str, datetime, bool]] = []
        self._heard: set[str] = set()
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="reconcile", daemon=True)

    def want(self, platform: str) -> None:
        """Events of this platform may have been lost until now: ask for a read-back."""
        with self._lock:
            first = platform not in self._heard
            self._heard.add(platform)
            self._asked.append((platform, self.clock.now(), first))
        self._wake.set()

    def wake(self) -> None:
        """Look for due channels now (an ask was written straight to the archive)."""
        self._wake.set()

    def start(self) -> None:
        """Run: at once, for a run a stopped process left unfinished; the platforms ask for
        their own when events flow again (a Socket Mode session opens, a Discord gateway
        session is new, Slack's HTTP mode starts serving), so a start asks once, stamped with
        the moment nothing more can be lost."""
        self._thread.start()

    def _loop(self) -> None:
        """Write the asks, run what is due, wait; until closed."""
        while not self._stop.is_set():
            self._wake.clear()
            try:
                self._pass()
            except ArchiveUnavailable:
                log.warning("reconciliation waits: the archive is unavailable")
            except Exception:
                log.exception("reconciliation failed; trying again later")
            self._wake.wait(self.poll)

    def _pass(self) -> None:
        """One pass over the asks and the due channels."""
        with self._lock:
            asked = list(self._asked)
        for platform, since, first in asked:
            if first and self._others_served():
                log.info(
                    "%s: another replica was running all along; nothing to read back", platform
                )
            else:
                self.reconciler.want(platform=platform, since=since)
            # Forgotten only once written: an ask the archive could not take is asked again.
            with self._lock:
                self._asked.remove((platform, since, first))
        if not self.leading():
            return
        for name, chat in self.platforms().items():
            if not isinstance(chat, ReadBack):
                continue
            for channel_id in self.reconciler.due(platform=name):
                if self._stop.is_set():
                    return
                self.reconciler.run(chat=chat, channel_id=channel_id, stopping=self._stop.is_set)

    def _others_served(self) -> bool:
        """Whether another replica ran all along; when that cannot be told, no (a read-back
        too many costs requests, one too few loses what people said)."""
        try:
            return self.others_served()
        except Exception:
            log.warning("could not tell whether another replica runs; reading back", exc_info=True)
            return False

    def close(self) -> None:
        """Stop between two pages (a post half read is read again next time)."""
        self._stop.set()
        self._wake.set()
        if self._thread.is_alive():
            self._thread.join(timeout=10)
