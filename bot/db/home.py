"""Store queries for the App Home: a person's own recent votes and comments, with titles.

Both are keyed by the channels the person is in (platform, workspace and channel id), so a
vote or comment of another workspace, or of a channel the person has left, is never shown.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import ColumnElement, and_, false, or_, select

from bot.db.convert import channel_key, utc
from bot.db.schema import ChannelRow, CommentRow, PaperRow, PostRow, VoteRow
from bot.db.unit import UnitBound
from bot.domain import ChannelKey
from bot.domain.home import OwnComment, OwnVote


def _among(*, channels: Sequence[ChannelKey]) -> ColumnElement[bool]:
    """The channel rows with one of these keys (none: no row)."""
    if not channels:
        return false()
    return or_(
        *(
            and_(
                ChannelRow.platform == key.platform,
                ChannelRow.workspace == key.workspace,
                ChannelRow.external_id == key.channel,
            )
            for key in channels
        )
    )


class SqlHome(UnitBound):
    """ports.HomeStore: a person's own recent votes and comments."""

    def votes_by(self, *, user: str, channels: Sequence[ChannelKey], limit: int) -> list[OwnVote]:
        """A person's latest votes in these channels, newest first, with the papers' titles."""
        query: Any = (
            select(
                ChannelRow, PaperRow.title, PostRow.local_date, VoteRow.value, VoteRow.updated_at
            )
            .join(PostRow, PostRow.id == VoteRow.post_id)
            .join(PaperRow, PaperRow.id == PostRow.paper_id)
            .join(ChannelRow, ChannelRow.id == PostRow.channel_id)
            .where(VoteRow.user_id == user, _among(channels=channels))
            .order_by(VoteRow.updated_at.desc(), VoteRow.id.desc())
            .limit(limit)
        )
        return [
            OwnVote(
                channel=channel_key(row=row),
                title=title,
                local_date=day,
                value=value,
                at=utc(value=at),
            )
            for row, title, day, value, at in self.session.execute(query)
        ]

    def comments_by(
        self, *, user: str, channels: Sequence[ChannelKey], limit: int
    ) -> list[OwnComment]:
        """A person's latest live comments in these channels, newest first, with titles."""
        query: Any = (
            select(
                ChannelRow,
                PaperRow.title,
                PostRow.local_date,
                CommentRow.text,
                CommentRow.created_at,
                CommentRow.edited_at,
            )
            .join(PostRow, PostRow.id == CommentRow.post_id)
            .join(PaperRow, PaperRow.id == PostRow.paper_id)
            .join(ChannelRow, ChannelRow.id == CommentRow.channel_id)
            .where(
                CommentRow.user_id == user,
                CommentRow.deleted.is_(False),
                _among(channels=channels),
            )
            .order_by(CommentRow.created_at.desc(), CommentRow.id.desc())
            .limit(limit)
        )
        return [
            OwnComment(
                channel=channel_key(row=row),
                title=title,
                local_date=day,
                text=text,
                at=utc(value=at),
                edited=edited is not None,
            )
            for row, title, day, text, at, edited in self.session.execute(query)
        ]
