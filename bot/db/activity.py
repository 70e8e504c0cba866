"""Store methods for what members do: votes, comments, and the events already applied."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Row, delete

from bot.db import activity_sql as sql
from bot.db.convert import utc
from bot.db.schema_upkeep import ProcessedEventRow
from bot.db.unit import UnitBound
from bot.domain import ChannelKey, CommentState, Post, PostState, VoteState
from bot.ports.activity import LIVE


def _sqlite_value(*, value: datetime | bool) -> object:
    """A datetime or boolean as SQLAlchemy stores it on SQLite: UTC text, or 0/1."""
    if isinstance(value, datetime):
        utc_value = value.astimezone(UTC).replace(tzinfo=None) if value.tzinfo else value
        # isoformat, not strftime: the same text, without strftime's locale and time zone work.
        return utc_value.isoformat(sep=" ", timespec="microseconds")
    return int(value)


_CONVERTED = (datetime, bool)


def _post(*, row: Row[Any]) -> Post:
    """A post from a row of the hot path's post look-ups (post columns, then the channel key)."""
    return Post(
        id=row.id,
        paper_id=row.paper_id,
        channel=ChannelKey(platform=row.platform, workspace=row.workspace, channel=row.external_id),
        local_date=row.local_date,
        state=PostState(row.state),
        message_id=row.message_id,
        permalink=row.permalink,
        claimed_by=row.claimed_by,
        claimed_at=utc(value=row.claimed_at) if row.claimed_at else None,
        channel_id=row.channel_id,
    )


class SqlActivity(UnitBound):
    """ports.ActivityStore: votes, comments and processed events.
    Every method here is on the path of each vote or comment, so each runs one statement of
    bot/db/activity_sql.py on the session's connection: prepared Core, or on SQLite the same
    statement given to the driver."""

    def _remember(self, *, post: Post) -> None:
        """Keep a delivered post in the memo; read inside a write, only once that write is
        committed (its commit may fail, and the row might be one the group just changed)."""
        scope = self.unit.scope
        if scope is None:
            self.unit.delivered.keep(post=post)
        else:
            scope.after_commit(lambda: self.unit.delivered.keep(post=post))

    def _run(self, name: str, params: dict[str, Any]) -> list[Any]:
        """Run one hot-path statement; its rows, read by column name (none for the writes
        that return none)."""
        connection, raw = self._connection()
        if raw is None:
            result = connection.execute(
                sql.core(name=name, dialect=connection.dialect.name), params
            )
            return [row._mapping for row in result] if result.returns_rows else []
        # Most parameters are text or numbers, passed as they are; only the few datetimes and
        # booleans pay for a conversion call (this runs for every statement of every vote).
        stored = {
            key: _sqlite_value(value=value) if isinstance(value, _CONVERTED) else value
            for key, value in params.items()
        }
        # sqlite3.Row: columns by name, like the Core path's mappings (the connection's own
        # row factory stays as SQLAlchemy set it).
        cursor = raw.cursor()
        cursor.row_factory = sqlite3.Row
        return cursor.execute(sql.SQLITE_TEXT[name], stored).fetchall()  # type: ignore[no-any-return]

    def mark_event(self, *, event_id: str, now: datetime) -> bool:
        """Record an event id; False when it was applied before (a retry or a redelivery)."""
        return bool(self._run("mark_event", {"event_id": event_id[:128], "seen_at": now}))

    def forget_event(self, *, event_id: str) -> None:
        """Forget one event id (a state it stood for is over: a reaction taken back)."""
        self.session.execute(
            delete(ProcessedEventRow).where(ProcessedEventRow.event_id == event_id[:128])
        )

    def prune_events(self, *, before: datetime) -> int:
        """Forget event ids older than any platform retries; how many went."""
        result = self.session.execute(
            delete(ProcessedEventRow).where(ProcessedEventRow.seen_at < before)
        )
        return int(getattr(result, "rowcount", 0) or 0)

    def post_by_message(self, *, channel: ChannelKey, message_id: str) -> Post | None:
        """The daily post that is this message, if it is one."""
        known = self.unit.delivered.get(channel=channel, message_id=message_id)
        if known is not None:
            return known
        row = (
            self._connection()[0]
            .execute(
                sql.POST_BY_MESSAGE,
                {
                    "platform": channel.platform,
                    "workspace": channel.workspace,
                    "channel": channel.channel,
                    "message_id": message_id,
                },
            )
            .first()
        )
        if row is None:
            return None
        post = _post(row=row)
        self._remember(post=post)
        return post

    def post_by_id(self, *, post_id: int) -> Post | None:
        """A post by id, with its channel's key."""
        known = self.unit.delivered.by_id(post_id=post_id)
        if known is not None:
            return known
        row = self._connection()[0].execute(sql.POST_BY_ID, {"post_id": post_id}).first()
        if row is None:
            return None
        post = _post(row=row)
        self._remember(post=post)
        return post

    def vote_of(self, *, post_id: int, user: str) -> VoteState | None:
        """A person's current vote on a post."""
        rows = self._run("vote_of", {"post_id": post_id, "user_id": user})
        if not rows:
            return None
        return VoteState(value=int(rows[0]["value"]), source=str(rows[0]["source"]))

    def set_vote(
        self,
        *,
        post_id: int,
        user: str,
        value: int,
        source: str,
        now: datetime,
        origin: str = LIVE,
    ) -> None:
        """Set (or change) a person's one vote on a post: one upsert on UNIQUE(post, user)."""
        self._run(
            "set_vote",
            {
                "post_id": post_id,
                "user_id": user,
                "value": value,
                "source": source,
                "updated_at": now,
                "origin": origin,
            },
        )

    def clear_vote(self, *, post_id: int, user: str, now: datetime, source: str) -> None:
        """Withdraw a person's vote, and keep when and by what (one more upsert, on
        withdrawals only)."""
        self._run("clear_vote", {"post_id": post_id, "user_id": user})
        self._run(
            "note_withdrawal",
            {"post_id": post_id, "user_id": user, "withdrawn_at": now, "source": source},
        )

    def comment_at(self, *, post: Post, message_id: str) -> CommentState | None:
        """The comment with this message id in the post's channel, live or deleted."""
        rows = self._run("comment_at", {"channel_id": post.channel_id, "message_id": message_id})
        if not rows:
            return None
        return CommentState(text=str(rows[0]["text"]), deleted=bool(rows[0]["deleted"]))

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
        origin: str = LIVE,
        edited_at: datetime | None = None,
    ) -> bool:
        """Store a comment; False when one with this message id exists (it wins: it may be a
        deletion that overtook the message)."""
        return bool(
            self._run(
                "add_comment",
                {
                    "post_id": post.id,
                    "channel_id": post.channel_id,
                    "user_id": user,
                    "message_id": message_id,
                    "text": text,
                    "created_at": now,
                    "edited_at": edited_at or (now if edited else None),
                    "deleted": deleted,
                    "origin": origin,
                },
            )
        )

    def edit_comment(
        self, *, post: Post, message_id: str, text: str, now: datetime, origin: str = LIVE
    ) -> None:
        """Replace a live comment's text."""
        self._run(
            "edit_comment",
            {
                "in_channel": post.channel_id,
                "of_message": message_id,
                "new_text": text,
                "edited": now,
                "by": origin,
            },
        )

    def delete_comment(self, *, post: Post, message_id: str, origin: str = LIVE) -> None:
        """Mark a comment deleted and forget its text: search and export no longer see it."""
        self._run(
            "delete_comment",
            {"in_channel": post.channel_id, "of_message": message_id, "by": origin},
        )
