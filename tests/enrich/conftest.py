"""Enrichment against the local fake arXiv and Crossref: a migrated SQLite archive, the real
sources, fetcher and cache, and a pace whose clock a test owns (no test waits 3 s a request)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime

import pytest

from bot.db.database import Database
from bot.domain import PaperDraft
from bot.enrich.fetch import Fetcher, Pace
from bot.enrich.setup import StoreCache, user_agent
from bot.enrich.sources import Sources
from bot.services import importing
from tests.fakelookup import FakeScholar

NOW = datetime(2026, 1, 5, 8, 0, tzinfo=UTC)


class FixedClock:
    """The test's "now" for stored times."""

    def now(self) -> datetime:
        """Always NOW."""
        return NOW


@dataclass
class PaceClock:
    """The pace's clock: sleeping moves it on at once; each request's booked start is kept."""

    now: float = 0.0
    starts: list[tuple[str, float]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def clock(self) -> float:
        """The pace's now."""
        with self.lock:
            return self.now

    def sleep(self, seconds: float) -> None:
        """Jump ahead."""
        with self.lock:
            self.now += seconds


class RecordingPace(Pace):
    """The real pace, noting when (on its clock) each request was let through."""

    def __init__(self, *, time: PaceClock) -> None:
        """Pace on the test's clock."""
        super().__init__(clock=time.clock, sleep=time.sleep)
        self.time = time

    def wait(self, *, service: str, at_least: float = 0.0) -> None:
        """Wait as the real pace does, then note the start."""
        super().wait(service=service, at_least=at_least)
        self.time.starts.append((service, self.time.clock()))


@dataclass
class World:
    """The archive, the fake services and the sources pointed at them."""

    database: Database
    scholar: FakeScholar
    sources: Sources
    time: PaceClock

    def add(self, *drafts: PaperDraft) -> None:
        """Import drafts as a reading list brings them."""
        importing.import_drafts(uow=self.database, drafts=drafts, now=NOW)


def make_sources(
    *, database: Database, scholar: FakeScholar, time: PaceClock, timeout: float = 2.0
) -> Sources:
    """The real sources on the fake, with the archive as cache."""
    fetcher = Fetcher(
        user_agent=user_agent(contact="club@example.org"),
        timeout=timeout,
        cache=StoreCache(uow=database, clock=FixedClock()),
        pace=RecordingPace(time=time),
    )
    return Sources(
        fetcher=fetcher,
        arxiv_url=scholar.arxiv_url,
        crossref_url=scholar.crossref_url,
        contact="club@example.org",
    )


@pytest.fixture
def world(database: Database) -> Iterator[World]:
    """An empty archive and an empty fake; tests add what they need."""
    with FakeScholar(records=[]) as scholar:
        time = PaceClock()
        yield World(
            database=database,
            scholar=scholar,
            time=time,
            sources=make_sources(database=database, scholar=scholar, time=time),
        )
