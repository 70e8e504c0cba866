"""Store methods ranking posts by votes and discussion (for /paperclub top and recaps)."""

from __future__ import annotations

from datetime import date

from sqlalchemy import func, select

from bot.db.convert import channel_key
from bot.db.schema import ChannelRow, PaperRow, PostRow
from bot.db.tallies import comments_per_post, votes_per_post
from bot.db.unit import UnitBound
from bot.domain import Channel, PostState, TopEntry, VoteCount


class SqlRanking(UnitBound):
    """ports.PostsStore.top_posts: posts ranked by votes and discussion."""

    def top_posts(
        self,
        *,
        channel: Channel | None,
        since: date | None,
        until: date | None = None,
        limit: int = 5,
    ) -> list[TopEntry]:
        """Posts of a period with their votes and live comments, best voted first."""
        votes, talk = votes_per_post(), comments_per_post()
        ups = func.coalesce(votes.c.up, 0)
        downs = func.coalesce(votes.c.down, 0)
        comments = func.coalesce(talk.c.n, 0)
        query = (
            select(
                PaperRow.title,
                ChannelRow,
                PostRow.local_date,
                PostRow.permalink,
                ups,
                downs,
                comments,
            )
            .join(PaperRow, PaperRow.id == PostRow.paper_id)
            .join(ChannelRow, ChannelRow.id == PostRow.channel_id)
            .outerjoin(votes, votes.c.post_id == PostRow.id)
            .outerjoin(talk, talk.c.post_id == PostRow.id)
            .where(PostRow.state == PostState.POSTED.value)
            .order_by((ups - downs).desc(), comments.desc(), PostRow.local_date.desc())
            .limit(limit)
        )
        if channel is not None:
            query = query.where(PostRow.channel_id == channel.id)
        if since is not None:
            query = query.where(PostRow.local_date >= since)
        if until is not None:
            query = query.where(PostRow.local_date <= until)
        return [
            TopEntry(
                title=title,
                channel=channel_key(row=row),
                date=day,
                permalink=link,
                votes=VoteCount(up=int(u), down=int(d)),
                comments=int(n),
            )
            for title, row, day, link, u, d, n in self.session.execute(query)
        ]
