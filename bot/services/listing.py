"""Read-only views of the archive: queues per channel and the export records."""

from __future__ import annotations

from dataclasses import dataclass

from bot.domain import Paper, PaperRecord
from bot.ports import UnitOfWork


@dataclass(frozen=True, slots=True)
class QueueView:
    """The head of one channel's queue; channel None is the shared list."""

    channel: str | None
    papers: tuple[Paper, ...]
    total: int


def queues(*, uow: UnitOfWork, channel: str | None = None, limit: int = 10) -> list[QueueView]:
    """The next papers of each followed channel (or of one), or of the shared list if none."""
    with uow(write=False) as store:
        followed = [c.channel_id for c in store.channels()]
        wanted: list[str | None] = [channel] if channel else list(followed) or [None]
        return [
            QueueView(
                channel=name,
                papers=tuple(store.queued(channel=name, limit=limit)),
                total=store.count_queued(channel=name),
            )
            for name in wanted
        ]


def records(*, uow: UnitOfWork) -> list[PaperRecord]:
    """Every paper with its posts, votes and comments, for export."""
    with uow(write=False) as store:
        return list(store.paper_records())
