"""The web archive's reference-manager files: every paper a public channel posted, or every
paper posted publicly in the last week, month or year, as export records. They follow the
pages' rule exactly (the same store reads): a private channel's posts never show, nor its own
queue's papers, and our own fields that are no part of a public post (a reading list's name)
are left out. Each paper once, by its latest post, newest first."""

from __future__ import annotations

from datetime import date, timedelta

from bot.domain import Channel, PaperRecord, WorkspaceKey
from bot.ports import UnitOfWork
from bot.services.archive_web import PERIODS, Needs, public_channel

# The most papers one file holds (the newest): a channel posting daily for thirteen years.
MOST_PAPERS = 5_000


def channel_records(
    *, uow: UnitOfWork[Needs], workspace: WorkspaceKey, name: str
) -> tuple[Channel, list[PaperRecord]] | None:
    """A public channel (by name or platform id) and every paper it posted; None when no
    public channel has it."""
    with uow(write=False) as store:
        found = public_channel(store=store, workspace=workspace, name=name)
        if found is None:
            return None
        papers = store.public_posted_papers(
            workspace=workspace, channel_id=found.id, since=None, limit=MOST_PAPERS
        )
        return found, [PaperRecord(paper=paper) for paper in papers]


def period_records(
    *, uow: UnitOfWork[Needs], workspace: WorkspaceKey, period: str, today: date
) -> list[PaperRecord] | None:
    """Every paper posted publicly in the last week, month or year (the top pages' periods),
    newest first; None for another period."""
    if period not in PERIODS:
        return None
    since = today - timedelta(days=PERIODS[period])
    with uow(write=False) as store:
        papers = store.public_posted_papers(
            workspace=workspace, channel_id=None, since=since, limit=MOST_PAPERS
        )
        return [PaperRecord(paper=paper) for paper in papers]
