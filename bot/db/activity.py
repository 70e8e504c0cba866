"""Store methods for what members do: votes, comments, and the events already applied."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from bot.db.convert import to_post
from bot.db.schema import ChannelRow, CommentRow, PostRow, ProcessedEventRow, VoteRow
from bot.domain import CommentState, Post, VoteState


class ActivityStore:
    """Votes, comments and processed events; mixed into SqlStore, which owns the session."""

    session: Session

    def mark_event(self, *, event_id: str, now: datetime) -> bool:
        """Record an event id; False when it was applied before (a retry or a redelivery)."""
        try:
            with self.session.begin_nested():
                self.session.add(ProcessedEventRow(event_id=event_id[:128], seen_at=now))
        except IntegrityError:
            return False
        return True

    def post_by_ts(self, *, platform: str, channel_id: str, ts: str) -> Post | None:
        """The daily post that is this message, if it is one."""
        row = self.session.scalar(
            select(PostRow)
            .join(ChannelRow, ChannelRow.id == PostRow.channel_id)
            .where(
                ChannelRow.platform == platform,
                ChannelRow.channel_id == channel_id,
                PostRow.ts == ts,
            )
        )
        return to_post(row=row, channel_id=channel_id) if row else None

    def post_by_id(self, *, post_id: int) -> Post | None:
        """A post by id, with its channel's platform id."""
        found = self.session.execute(
            select(PostRow, ChannelRow.channel_id)
            .join(ChannelRow, ChannelRow.id == PostRow.channel_id)
            .where(PostRow.id == post_id)
        ).first()
        return to_post(row=found[0], channel_id=found[1]) if found else None

    def vote_of(self, *, post_id: int, user: str) -> VoteState | None:
        """A person's current vote on a post."""
        row = self.session.scalar(
            select(VoteRow).where(VoteRow.post_id == post_id, VoteRow.user_id == user)
        )
        return VoteState(value=row.value, source=row.source) if row else None

    def set_vote(self, *, post_id: int, user: str, value: int, source: str, now: datetime) -> None:
        """Set (or change) a person's one vote on a post."""
        row = self.session.scalar(
            select(VoteRow).where(VoteRow.post_id == post_id, VoteRow.user_id == user)
        )
        if row is None:
            self.session.add(
                VoteRow(post_id=post_id, user_id=user, value=value, source=source, updated_at=now)
            )
        else:
            row.value, row.source, row.updated_at = value, source, now
        self.session.flush()

    def clear_vote(self, *, post_id: int, user: str) -> None:
        """Withdraw a person's vote."""
        self.session.execute(
            delete(VoteRow).where(VoteRow.post_id == post_id, VoteRow.user_id == user)
        )

    def _channel_pk(self, *, post: Post) -> int:
        """The channels row id behind a post."""
        return int(
            self.session.scalar(select(PostRow.channel_id).where(PostRow.id == post.id)) or 0
        )

    def comment_at(self, *, post: Post, ts: str) -> CommentState | None:
        """The comment with this ts in the post's channel, live or deleted."""
        row = self.session.scalar(
            select(CommentRow).where(
                CommentRow.channel_id == self._channel_pk(post=post), CommentRow.ts == ts
            )
        )
        return CommentState(text=row.text, deleted=row.deleted) if row else None

    def add_comment(
        self,
        *,
        post: Post,
        user: str,
        ts: str,
        text: str,
        now: datetime,
        deleted: bool = False,
        edited: bool = False,
    ) -> bool:
        """Store a comment; False when one with this ts exists (it wins: it may be a deletion)."""
        row = CommentRow(
            post_id=post.id, channel_id=self._channel_pk(post=post), user_id=user, ts=ts,
            text=text, created_at=now, edited_at=now if edited else None, deleted=deleted,
        )  # fmt: skip
        try:
            with self.session.begin_nested():
                self.session.add(row)
        except IntegrityError:
            return False
        return True

    def edit_comment(self, *, post: Post, ts: str, text: str, now: datetime) -> None:
        """Replace a live comment's text."""
        self.session.execute(
            update(CommentRow)
            .where(
                CommentRow.channel_id == self._channel_pk(post=post),
                CommentRow.ts == ts,
                CommentRow.deleted.is_(False),
            )
            .values(text=text, edited_at=now)
        )

    def delete_comment(self, *, post: Post, ts: str) -> None:
        """Mark a comment deleted and forget its text: search and export no longer see it."""
        self.session.execute(
            update(CommentRow)
            .where(CommentRow.channel_id == self._channel_pk(post=post), CommentRow.ts == ts)
            .values(deleted=True, text="")
        )
