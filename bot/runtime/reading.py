"""Reading the watches in the background: one thread per process that, on the process that
leads (every process on SQLite, the scheduler's leader among replicas), reads the watches due
and tells a channel's admins once when its source fails.

Its own thread, because arXiv asks for three seconds between requests and a feed may take
its whole timeout: the daily post and events never wait for it. It looks every `poll`
seconds (a minute by default: a watch just added is read within one; a look with nothing
due reads only the watches' state, and a source is still read once a cycle:
bot/services/sources_read.py).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime
from typing import Protocol

from bot.ports import ArchiveUnavailable, Chat, Clock, UnitOfWork
from bot.ports.fetching import Fetcher
from bot.runtime.polling import PollingThread
from bot.runtime.telling import tell
from bot.services import sources_read
from bot.sources.watch_text import SourceBases
from bot.wording import sources as words

log = logging.getLogger("paperclub")


class Warm(Protocol):
    """Readies the suggestions' taste model (suggestion_taste.TasteScorers.warm)."""

    def warm(self, *, platform: str, now: datetime) -> int:
        """Learn a platform's channels' signals and embed what their rankings need; how many
        texts were embedded."""
        ...


class SourcesWorker:
    """Reads due watches on a thread of its own."""

    def __init__(
        self,
        *,
        uow: UnitOfWork[sources_read.Needs],
        fetcher: Fetcher,
        bases: SourceBases,
        clock: Clock,
        platforms: Callable[[], dict[str, Chat]],
        leading: Callable[[], bool],
        poll: float,
        warm: Warm | None = None,
    ) -> None:
        """`platforms`: the Chats running here by platform name (read at each pass: they are
        built after this); `leading`: whether this process runs the work now; `warm`: readies
        the taste model for the next trays after each read (None: the keyword path alone), here
        because embedding takes a while and the scheduler's thread must not wait for it."""
        self.uow, self.fetcher, self.bases, self.clock = uow, fetcher, bases, clock
        self.platforms, self.leading, self.poll = platforms, leading, poll
        self.warm = warm
        self.thread = PollingThread(
            name="sources", what="reading the watches", step=self._pass, poll=poll
        )

    def start(self) -> None:
        """Run: a first look at once (a cycle a stopped process left unread), then every poll."""
        self.thread.start()

    def _pass(self) -> None:
        """One round of reads, on the leader, for the platforms running here."""
        if not self.leading():
            return
        chats = self.platforms()
        with self.uow(write=False) as store:
            channels = [
                w.channel for w in store.watches(channel=None) if w.channel.platform in chats
            ]
        if not channels:
            return
        done = sources_read.read_due(
            uow=self.uow,
            fetcher=self.fetcher,
            bases=self.bases,
            now=self.clock.now(),
            channels=channels,
        )
        if done.asked:
            log.info("read %d source(s): %d new suggestion(s)", done.asked, done.kept)
        for failure in done.failures:
            said = words.failing(watch=failure.watch, reason=failure.reason)
            tell(chats=chats, channel=failure.watch.channel, message=said, what="a failing watch")
        self._warm(platforms=sorted(chats))

    def _warm(self, *, platforms: list[str]) -> None:
        """Ready the taste model for the platforms' next trays; a failure is logged, and the
        trays rank with what it had (the keyword path, at worst)."""
        if self.warm is None:
            return
        for platform in platforms:
            try:
                self.warm.warm(platform=platform, now=self.clock.now())
            except ArchiveUnavailable:
                log.warning("the suggestions' taste model waits: the archive is unavailable")
            except Exception:
                log.exception("the suggestions' taste model for %s could not learn", platform)

    def close(self) -> None:
        """Stop after the request in flight."""
        self.thread.close(timeout=40)
