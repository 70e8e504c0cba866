"""Store queries for the web archive: one workspace's public channels only.

Every query joins the channel row and keeps `private` false, so a private channel's posts,
votes and comments never leave here; a paper queued for a private channel is not shown.
Pages are read first and their votes and comments counted for those posts alone, so a page
costs the same at 100 papers as at 100,000.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, timedelta
from typing import Any

from sqlalchemy import ColumnElement, and_, case, false, func, or_, select, true

from bot.db.convert import channel_key, to_channel, to_paper, utc
from bot.db.schema import ChannelRow, CommentRow, PaperRow, PostRow, VoteRow
from bot.db.tallies import comments_per_post, votes_per_post
from bot.db.unit import UnitBound
from bot.db.workspaces import in_workspace
from bot.domain import Channel, Paper, PostState, VoteCount, WorkspaceKey
from bot.domain.archive import ArchivePost, PostList, VoteMoment, WeekActivity
from bot.ports.archive_pages import one_person


def _public(*, workspace: WorkspaceKey) -> ColumnElement[bool]:
    """The channel rows of the workspace that are not private (all of one person's)."""
    return and_(
        ChannelRow.platform == workspace.platform,
        ChannelRow.workspace == workspace.id,
        true() if one_person(workspace=workspace) else ChannelRow.private.is_(False),
    )


def _not_privately_queued(*, workspace: WorkspaceKey) -> ColumnElement[bool]:
    """A paper that waits in no private channel's own queue (one person's wait in the open)."""
    private_queue = select(ChannelRow.id).where(
        ChannelRow.private.is_(True), false() if one_person(workspace=workspace) else true()
    )
    return or_(PaperRow.queue_channel_id.is_(None), PaperRow.queue_channel_id.not_in(private_queue))


def _monday(*, day: date) -> date:
    """The Monday of a day's ISO week."""
    return day - timedelta(days=day.weekday())


class SqlArchivePages(UnitBound):
    """ports.ArchivePagesStore: the web archive's queries, public channels only."""

    def _posts_query(self, *, workspace: WorkspaceKey, channel_id: int | None) -> Any:
        """Delivered posts of public channels of the workspace (optionally one channel)."""
        query = (
            select(PostRow.id)
            .join(ChannelRow, ChannelRow.id == PostRow.channel_id)
            .join(PaperRow, PaperRow.id == PostRow.paper_id)
            .where(
                _public(workspace=workspace),
                in_workspace(workspace=workspace),
                PostRow.state == PostState.POSTED.value,
            )
        )
        return query if channel_id is None else query.where(ChannelRow.id == channel_id)

    def public_posts(
        self,
        *,
        workspace: WorkspaceKey,
        channel_id: int | None,
        since: date | None,
        by_votes: bool,
        limit: int,
        offset: int,
    ) -> PostList:
        """Delivered posts of the workspace's public channels (or one of them), newest first
        or (`by_votes`) most voted first, posted on `since` or later."""
        base = self._posts_query(workspace=workspace, channel_id=channel_id)
        if since is not None:
            base = base.where(PostRow.local_date >= since)
        total = int(self.session.scalar(select(func.count()).select_from(base.subquery())) or 0)
        if by_votes:
            ordered = self._by_score(base=base)
        else:
            ordered = base.order_by(PostRow.local_date.desc(), PostRow.id.desc())
        ids = list(self.session.scalars(ordered.limit(limit).offset(offset)))
        return PostList(posts=tuple(self._archive_posts(post_ids=ids)), total=total, offset=offset)

    @staticmethod
    def _by_score(*, base: Any) -> Any:
        """Posts by score (👍 minus 👎), then 👍, then live comments, then newest: a post
        with one 👎 ranks below one nobody voted on."""
        votes, talk = votes_per_post(), comments_per_post()
        up = func.coalesce(votes.c.up, 0)
        down = func.coalesce(votes.c.down, 0)
        comments = func.coalesce(talk.c.n, 0)
        return (
            base.outerjoin(votes, votes.c.post_id == PostRow.id)
            .outerjoin(talk, talk.c.post_id == PostRow.id)
            .order_by(
                (up - down).desc(),
                up.desc(),
                comments.desc(),
                PostRow.local_date.desc(),
                PostRow.id.desc(),
            )
        )

    def _archive_posts(self, *, post_ids: Sequence[int]) -> list[ArchivePost]:
        """These posts with their titles, votes and live comment counts, in the given order."""
        if not post_ids:
            return []
        up = func.coalesce(func.sum(case((VoteRow.value > 0, 1), else_=0)), 0)
        down = func.coalesce(func.sum(case((VoteRow.value < 0, 1), else_=0)), 0)
        votes = {
            pid: VoteCount(up=int(u), down=int(d))
            for pid, u, d in self.session.execute(
                select(VoteRow.post_id, up, down)
                .where(VoteRow.post_id.in_(post_ids))
                .group_by(VoteRow.post_id)
            )
        }
        talk: dict[int, int] = {
            pid: int(n)
            for pid, n in self.session.execute(
                select(CommentRow.post_id, func.count())
                .where(CommentRow.post_id.in_(post_ids), CommentRow.deleted.is_(False))
                .group_by(CommentRow.post_id)
            )
        }
        rows = {
            post.id: (post, paper, channel)
            for post, paper, channel in self.session.execute(
                select(PostRow, PaperRow, ChannelRow)
                .join(PaperRow, PaperRow.id == PostRow.paper_id)
                .join(ChannelRow, ChannelRow.id == PostRow.channel_id)
                .where(PostRow.id.in_(post_ids))
            )
        }
        return [
            ArchivePost(
                paper_id=paper.id,
                title=paper.title,
                authors=tuple(paper.authors or ()),
                channel=channel_key(row=channel),
                date=post.local_date,
                permalink=post.permalink,
                votes=votes.get(post.id, VoteCount()),
                comments=int(talk.get(post.id, 0)),
                abstract=paper.abstract or "",
                url=paper.url,
                arxiv_id=paper.arxiv_id,
                doi=paper.doi,
            )
            for post, paper, channel in (rows[pid] for pid in post_ids if pid in rows)
        ]

    def public_paper(self, *, workspace: WorkspaceKey, paper_id: int) -> Paper | None:
        """A paper of the workspace, unless it waits in a private channel's own queue."""
        row = self.session.scalar(
            select(PaperRow).where(
                PaperRow.id == paper_id,
                in_workspace(workspace=workspace),
                _not_privately_queued(workspace=workspace),
            )
        )
        return None if row is None else to_paper(row=row)

    def public_posted_papers(
        self, *, workspace: WorkspaceKey, channel_id: int | None, since: date | None, limit: int
    ) -> list[Paper]:
        """Each paper with a delivered post in the workspace's public channels (or one of
        them) on `since` or later, once, by its latest such post (newest first); a paper
        public_paper would hide is left out. One query, whatever the number."""
        query = self._posts_query(workspace=workspace, channel_id=channel_id)
        if since is not None:
            query = query.where(PostRow.local_date >= since)
        latest = (
            query.with_only_columns(
                PostRow.paper_id,
                func.max(PostRow.local_date).label("day"),
                func.max(PostRow.id).label("post"),
            )
            .group_by(PostRow.paper_id)
            .subquery()
        )
        rows = self.session.scalars(
            select(PaperRow)
            .join(latest, latest.c.paper_id == PaperRow.id)
            .where(_not_privately_queued(workspace=workspace))
            .order_by(latest.c.day.desc(), latest.c.post.desc())
            .limit(limit)
        )
        return [to_paper(row=row) for row in rows]

    def public_channels(self, *, workspace: WorkspaceKey) -> list[Channel]:
        """The workspace's public followed channels."""
        rows = self.session.scalars(
            select(ChannelRow).where(_public(workspace=workspace)).order_by(ChannelRow.id)
        )
        return [to_channel(row=row) for row in rows]

    def public_weeks(self, *, workspace: WorkspaceKey, since: date) -> list[WeekActivity]:
        """Posts, votes and comments per ISO week in public channels, oldest first."""
        posts = self._posts_query(workspace=workspace, channel_id=None).where(
            PostRow.local_date >= since
        )
        ids = posts.subquery()
        days: dict[int, date] = {
            pid: day for pid, day in self.session.execute(posts.add_columns(PostRow.local_date))
        }
        weeks: dict[date, list[int]] = {}
        for day in days.values():
            weeks.setdefault(_monday(day=day), [0, 0, 0])[0] += 1
        for column, table, index in (
            (VoteRow.post_id, VoteRow, 1),
            (CommentRow.post_id, CommentRow, 2),
        ):
            query = select(column, func.count()).where(column.in_(select(ids.c.id)))
            if table is CommentRow:
                query = query.where(CommentRow.deleted.is_(False))
            for post_id, count in self.session.execute(query.group_by(column)):
                weeks[_monday(day=days[post_id])][index] += int(count)
        return [
            WeekActivity(monday=monday, posts=p, votes=v, comments=c)
            for monday, (p, v, c) in sorted(weeks.items())
        ]

    def public_vote_moments(self, *, workspace: WorkspaceKey, paper_id: int) -> list[VoteMoment]:
        """When each vote on the paper's public posts was last set, oldest first."""
        rows = self.session.execute(
            select(VoteRow.updated_at, VoteRow.value)
            .join(PostRow, PostRow.id == VoteRow.post_id)
            .join(ChannelRow, ChannelRow.id == PostRow.channel_id)
            .join(PaperRow, PaperRow.id == PostRow.paper_id)
            .where(
                PostRow.paper_id == paper_id,
                _public(workspace=workspace),
                in_workspace(workspace=workspace),
            )
            .order_by(VoteRow.updated_at, VoteRow.id)
        )
        return [VoteMoment(at=utc(value=at), value=int(value)) for at, value in rows]

    def public_post_days(self, *, workspace: WorkspaceKey, since: date) -> list[date]:
        """The dates of delivered posts in public channels from `since` on (one per post)."""
        posts = self._posts_query(workspace=workspace, channel_id=None).where(
            PostRow.local_date >= since
        )
        return list(self.session.scalars(posts.with_only_columns(PostRow.local_date)))
