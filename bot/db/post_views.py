"""Posts as the group saw them (domain.PostView: where and when, votes, live comments), read
for a set of posts in three queries, whoever asks: a paper's posts (papers.post_views, the
export), a channel's posted papers (zotero.posted_papers)."""

from __future__ import annotations

from collections import defaultdict

from sqlalchemy import ColumnElement, case, func, select
from sqlalchemy.orm import Session

from bot.db.convert import channel_key
from bot.db.schema import ChannelRow, CommentRow, PostRow, VoteRow
from bot.db.workspaces import visible_to
from bot.domain import ChannelKey, CommentView, PostView, VoteCount


def views_of_posts(
    *, session: Session, posts: ColumnElement[bool], viewer: ChannelKey | None
) -> list[tuple[PostRow, PostView]]:
    """The posts `posts` (a condition on PostRow) selects, each with its view: vote counts and
    live comments (deleted ones left out, in message order), by local date; with a viewer,
    only the posts that channel may see (its own, and its workspace's public ones)."""
    up = func.coalesce(func.sum(case((VoteRow.value > 0, 1), else_=0)), 0)
    down = func.coalesce(func.sum(case((VoteRow.value < 0, 1), else_=0)), 0)
    votes = {
        post_id: VoteCount(up=int(u), down=int(d))
        for post_id, u, d in session.execute(
            select(VoteRow.post_id, up, down)
            .join(PostRow, PostRow.id == VoteRow.post_id)
            .where(posts)
            .group_by(VoteRow.post_id)
        )
    }
    comments: dict[int, list[CommentView]] = defaultdict(list)
    for comment in session.scalars(
        select(CommentRow)
        .join(PostRow, PostRow.id == CommentRow.post_id)
        .where(posts, CommentRow.deleted.is_(False))
        .order_by(CommentRow.message_id)
    ):
        comments[comment.post_id].append(
            CommentView(
                user=comment.user_id,
                message_id=comment.message_id,
                text=comment.text,
                edited=comment.edited_at is not None,
            )
        )
    query = (
        select(PostRow, ChannelRow)
        .join(ChannelRow, ChannelRow.id == PostRow.channel_id)
        .where(posts)
        .order_by(PostRow.local_date)
    )
    if viewer is not None:
        query = query.where(visible_to(viewer=viewer))
    return [
        (
            post,
            PostView(
                channel=channel_key(row=channel),
                date=post.local_date,
                message_id=post.message_id,
                permalink=post.permalink,
                votes=votes.get(post.id, VoteCount()),
                comments=tuple(comments.get(post.id, ())),
                private=channel.private,
            ),
        )
        for post, channel in session.execute(query)
    ]
