"""Interfaces the core needs from its edges: a store, a chat platform, a clock."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager
from datetime import datetime
from typing import Protocol

from bot.domain import Channel, NewPaper, Paper, PaperRecord


class Clock(Protocol):
    """Where "now" comes from, so tests and the scheduler decide what time it is."""

    def now(self) -> datetime:
        """The current instant, timezone-aware."""
        ...


class Store(Protocol):
    """Persistence, inside one unit of work (one transaction)."""

    def known_keys(self) -> set[str]:
        """Every dedupe key already stored (arxiv:, doi:, fp: prefixed)."""
        ...

    def max_position(self) -> int:
        """The highest queue position used so far (0 when empty)."""
        ...

    def insert_papers(self, *, papers: Sequence[NewPaper]) -> int:
        """Insert papers, skipping any whose key another writer stored meanwhile; the count kept."""
        ...

    def queued(self, *, channel: str | None, limit: int) -> list[Paper]:
        """The next queued papers for a channel (its own, then the shared list) in order."""
        ...

    def count_queued(self, *, channel: str | None) -> int:
        """How many papers wait in a channel's queue."""
        ...

    def channels(self) -> list[Channel]:
        """Every channel that follows the list."""
        ...

    def paper_records(self) -> Iterator[PaperRecord]:
        """Every paper with its posts, votes and live comments, in id order."""
        ...


class UnitOfWork(Protocol):
    """Opens a transaction and hands out the Store bound to it; commits on success."""

    def __call__(self, *, write: bool = True) -> AbstractContextManager[Store]:
        """Begin a unit of work; read-only ones don't take the write lock."""
        ...
