"""The web archive's reference-manager files: every paper a public channel posted, or every
paper posted publicly in the last week, month or year, as export records. They follow the
pages' rule exactly (the same store reads): a private channel's posts never show, nor its own
queue's papers, and our own fields that are no part of a public post (a reading list's name)
are left out."""

from __future__ import annotations

from datetime import date, timedelta

from bot.domain import Channel, PaperRecord, WorkspaceKey
from bot.domain.archive import PostList
from bot.ports import UnitOfWork
from bot.services.archive_web import PERIODS, Needs, public_channel

# The most posts one file holds: a channel posting every day for thirteen years.
MOST_POSTS = 5_000


def _records(*, store: Needs, workspace: WorkspaceKey, posts: PostList) -> list[PaperRecord]:
    """Each posted paper once, in the posts' order (newest first), as the archive shows it."""
    seen: set[int] = set()
    records: list[PaperRecord] = []
    for post in posts.posts:
        if post.paper_id in seen:
            continue
        seen.add(post.paper_id)
        paper = store.public_paper(workspace=workspace, paper_id=post.paper_id)
        if paper is not None:
            records.append(PaperRecord(paper=paper))
    return records


def channel_records(
    *, uow: UnitOfWork[Needs], workspace: WorkspaceKey, name: str
) -> tuple[Channel, list[PaperRecord]] | None:
    """A public channel (by name or platform id) and every paper it posted; None when no
    public channel has it."""
    with uow(write=False) as store:
        found = public_channel(store=store, workspace=workspace, name=name)
        if found is None:
            return None
        posts = store.public_posts(
            workspace=workspace,
            channel_id=found.id,
            since=None,
            by_votes=False,
            limit=MOST_POSTS,
            offset=0,
        )
        return found, _records(store=store, workspace=workspace, posts=posts)


def period_records(
    *, uow: UnitOfWork[Needs], workspace: WorkspaceKey, period: str, today: date
) -> list[PaperRecord] | None:
    """Every paper posted publicly in the last week, month or year (the top pages' periods),
    newest first; None for another period."""
    if period not in PERIODS:
        return None
    since = today - timedelta(days=PERIODS[period])
    with uow(write=False) as store:
        posts = store.public_posts(
            workspace=workspace,
            channel_id=None,
            since=since,
            by_votes=False,
            limit=MOST_POSTS,
            offset=0,
        )
        return _records(store=store, workspace=workspace, posts=posts)
