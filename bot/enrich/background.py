"""Enrichment while the bot runs: a channel's next paper just before it is due (so the post
shows the real title and whole abstract), and papers never tried yet (a `/paperclub add`, an
import) in the background after each minute's sweep.

Offline, each service is said to be unreachable once, then left alone for RETRY before it is
asked again; a paper whose services could not be asked stays untried and is tried again then.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from bot.domain import ChannelKey, Schedule

if TYPE_CHECKING:
    from bot.enrich.sources import Sources
from bot.ports import Clock, Store, UnitOfWork
from bot.services.schedule import is_due, local_now

log = logging.getLogger("paperclub")

LEAD = timedelta(minutes=10)  # how long before its post time a channel's next paper is enriched
RETRY = timedelta(hours=1)  # how long an unreachable service is left alone
PER_PASS = 5  # untried papers enriched after one sweep (arXiv's pace: ~3 s each)


class Enricher:
    """The running bot's enrichment: `prepare` on the scheduler's thread, `kick` for a pass on
    its own thread."""

    def __init__(
        self, *, uow: UnitOfWork[Store], sources: Callable[[], Sources], clock: Clock
    ) -> None:
        """Idle until started; the sources are made when first needed (and the enrichment
        code imported then: a start that enriches nothing loads none of it)."""
        self.uow, self.clock = uow, clock
        self._make_sources = sources
        self._sources: Sources | None = None
        self._wake = threading.Event()
        self._closed = threading.Event()
        self._lock = threading.Lock()  # one enrichment at a time: the scheduler's or the pass's
        self._said: set[str] = set()
        self._down_since: datetime | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Start the background pass's thread."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="enricher", daemon=True)
            self._thread.start()

    def prepare(self, *, now: datetime) -> None:
        """Enrich the next paper of every channel whose post is due or near (LEAD), once
        (nothing before start(): a wiring that never runs asks nobody)."""
        if self._thread is None:
            return
        with self.uow(write=False) as store:
            soon = [
                c.key
                for c in store.channels()
                if not c.paused and _soon(schedule=c.schedule, now=now)
            ]
        for key in soon:
            self.next_of(channel=key, now=now)

    def next_of(self, *, channel: ChannelKey, now: datetime) -> None:
        """Enrich the channel's next paper, if it was never tried and today has no post yet."""
        with self.uow(write=False) as store:
            followed = store.channel(key=channel)
            if followed is None:
                return
            today = local_now(schedule=followed.schedule, now=now).date()
            head = (
                []
                if store.post_on(channel=followed, local_date=today)
                else store.queued(workspace=channel.workspace_key, channel=followed, limit=1)
            )
            papers = store.papers_to_enrich(ids=[head[0].id], untried=True) if head else []
        for paper in papers:
            self._one(paper_id=paper.id, now=now)

    @property
    def sources(self) -> Sources:
        """arXiv and Crossref, made on first use."""
        if self._sources is None:
            self._sources = self._make_sources()
        return self._sources

    def kick(self) -> None:
        """Run a background pass soon (after a sweep)."""
        self._wake.set()

    def _run(self) -> None:
        """Passes until closed: up to PER_PASS untried papers each."""
        while not self._closed.is_set():
            self._wake.wait()
            self._wake.clear()
            if self._closed.is_set():
                return
            try:
                with self.uow(write=False) as store:
                    papers = store.papers_to_enrich(ids=None, untried=True)[:PER_PASS]
                for paper in papers:
                    if self._closed.is_set():
                        return
                    self._one(paper_id=paper.id, now=self.clock.now())
            except Exception:  # a pass must never end the thread: the next sweep tries again
                log.exception("enrichment pass failed")

    def _one(self, *, paper_id: int, now: datetime) -> None:
        """Enrich one paper (a fresh read of it, under the lock)."""
        with self._lock:
            self._forgive(now=now)
            with self.uow(write=False) as store:
                paper = store.paper(paper_id=paper_id)
            if paper is None:
                return
            from bot.enrich.service import Result, enrich_one

            outcome = enrich_one(
                uow=self.uow, sources=self.sources, paper=paper, now=now, dry_run=False
            )
            self._say_down(now=now)
            if outcome.result is Result.FOUND:
                log.info(
                    "enriched paper %s: %s", paper_id, ", ".join(c.field for c in outcome.changes)
                )

    def _say_down(self, *, now: datetime) -> None:
        """Say once that a service could not be reached."""
        for service, why in self.sources.down.items():
            if service not in self._said:
                self._said.add(service)
                self._down_since = self._down_since or now
                log.warning("%s; papers are enriched once it answers again", why)

    def _forgive(self, *, now: datetime) -> None:
        """After RETRY, ask the unreachable services again."""
        if self._down_since is not None and now - self._down_since >= RETRY:
            self.sources.down.clear()
            self._said.clear()
            self._down_since = None

    def close(self) -> None:
        """Stop the pass's thread (a paper being enriched is finished first)."""
        self._closed.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=30)


def _soon(*, schedule: Schedule, now: datetime) -> bool:
    """Whether a channel's post is due now or within LEAD."""
    return bool(is_due(schedule=schedule, now=now) or is_due(schedule=schedule, now=now + LEAD))
