"""Store methods for what members do: votes, comments, and the events already applied."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session

from bot.db.convert import channel_key, to_post
from bot.db.engine import upsert_insert
from bot.db.schema import Base, ChannelRow, CommentRow, PostRow, ProcessedEventRow, VoteRow
from bot.domain import ChannelKey, CommentState, Post, VoteState


class ActivityStore:
    """Votes, comments and processed events; mixed into SqlStore, which owns the session."""

    session: Session

    def _insert_new(self, *, table: str, values: dict[str, object], returning: str) -> bool:
        """INSERT ... ON CONFLICT DO NOTHING: True when the row went in. One statement, no
        savepoint: this is the hot path of every vote and comment."""
        target = Base.metadata.tables[table]
        statement = upsert_insert(session=self.session, table=target)
        statement = statement.values(**values).on_conflict_do_nothing()
        return self.session.execute(statement.returning(target.c[returning])).first() is not None

    def mark_event(self, *, event_id: str, now: datetime) -> bool:
        """Record an event id; False when it was applied before (a retry or a redelivery)."""
        return self._insert_new(
            table="processed_events",
            values={"event_id": event_id[:128], "seen_at": now},
            returning="event_id",
        )

    def prune_events(self, *, before: datetime) -> int:
        """Forget event ids older than any platform retries; how many went."""
        result = self.session.execute(
            delete(ProcessedEventRow).where(ProcessedEventRow.seen_at < before)
        )
        return int(getattr(result, "rowcount", 0) or 0)

    def post_by_message(self, *, channel: ChannelKey, message_id: str) -> Post | None:
        """The daily post that is this message, if it is one."""
        row = self.session.scalar(
            select(PostRow)
            .join(ChannelRow, ChannelRow.id == PostRow.channel_id)
            .where(
                ChannelRow.platform == channel.platform,
                ChannelRow.workspace == channel.workspace,
                ChannelRow.external_id == channel.channel,
                PostRow.message_id == message_id,
            )
        )
        return to_post(row=row, channel=channel) if row else None

    def post_by_id(self, *, post_id: int) -> Post | None:
        """A post by id, with its channel's key."""
        found = self.session.execute(
            select(PostRow, ChannelRow)
            .join(ChannelRow, ChannelRow.id == PostRow.channel_id)
            .where(PostRow.id == post_id)
        ).first()
        return to_post(row=found[0], channel=channel_key(row=found[1])) if found else None

    def vote_of(self, *, post_id: int, user: str) -> VoteState | None:
        """A person's current vote on a post."""
        row = self.session.scalar(
            select(VoteRow).where(VoteRow.post_id == post_id, VoteRow.user_id == user)
        )
        return VoteState(value=row.value, source=row.source) if row else None

    def set_vote(self, *, post_id: int, user: str, value: int, source: str, now: datetime) -> None:
        """Set (or change) a person's one vote on a post: one upsert on UNIQUE(post, user)."""
        votes = Base.metadata.tables["votes"]
        statement = upsert_insert(session=self.session, table=votes).values(
            post_id=post_id, user_id=user, value=value, source=source, updated_at=now
        )
        self.session.execute(
            statement.on_conflict_do_update(
                index_elements=["post_id", "user_id"],
                set_={"value": value, "source": source, "updated_at": now},
            )
        )

    def clear_vote(self, *, post_id: int, user: str) -> None:
        """Withdraw a person's vote."""
        self.session.execute(
            delete(VoteRow).where(VoteRow.post_id == post_id, VoteRow.user_id == user)
        )

    def comment_at(self, *, post: Post, message_id: str) -> CommentState | None:
        """The comment with this message id in the post's channel, live or deleted."""
        row = self.session.scalar(
            select(CommentRow).where(
                CommentRow.channel_id == post.channel_id, CommentRow.message_id == message_id
            )
        )
        return CommentState(text=row.text, deleted=row.deleted) if row else None

    def add_comment(
        self,
        *,
        post: Post,
        user: str,
        message_id: str,
        text: str,
        now: datetime,
        deleted: bool = False,
        edited: bool = False,
    ) -> bool:
        """Store a comment; False when one with this message id exists (it wins: it may be a
        deletion that overtook the message)."""
        values: dict[str, object] = {
            "post_id": post.id, "channel_id": post.channel_id, "user_id": user,
            "message_id": message_id,
            "text": text, "created_at": now, "edited_at": now if edited else None,
            "deleted": deleted,
        }  # fmt: skip
        return self._insert_new(table="comments", values=values, returning="id")

    def edit_comment(self, *, post: Post, message_id: str, text: str, now: datetime) -> None:
        """Replace a live comment's text."""
        self.session.execute(
            update(CommentRow)
            .where(
                CommentRow.channel_id == post.channel_id,
                CommentRow.message_id == message_id,
                CommentRow.deleted.is_(False),
            )
            .values(text=text, edited_at=now)
        )

    def delete_comment(self, *, post: Post, message_id: str) -> None:
        """Mark a comment deleted and forget its text: search and export no longer see it."""
        self.session.execute(
            update(CommentRow)
            .where(CommentRow.channel_id == post.channel_id, CommentRow.message_id == message_id)
            .values(deleted=True, text="")
        )
