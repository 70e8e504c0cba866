"""The hot path's statements (every vote and comment), built once and executed as Core.

Building a statement and going through the ORM's execute costs more than SQLite takes to run
it; these are made once per dialect, with bound parameters, so each delivery pays only for the
compiled-cache hit and the database's own work.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from sqlalchemy import Delete, Select, Update, bindparam, delete, select, update

from bot.db.engine import dialect_insert
from bot.db.schema import Base, ChannelRow, CommentRow, PostRow, VoteRow, VoteWithdrawalRow
from bot.db.schema_upkeep import ProcessedEventRow

# In an UPDATE, a bound parameter may not share a column's name, hence in_channel and the like.
POSTS = Base.metadata.tables[PostRow.__tablename__]
CHANNELS = Base.metadata.tables[ChannelRow.__tablename__]
VOTES = Base.metadata.tables[VoteRow.__tablename__]
COMMENTS = Base.metadata.tables[CommentRow.__tablename__]
WITHDRAWALS = Base.metadata.tables[VoteWithdrawalRow.__tablename__]
_PROCESSED = Base.metadata.tables[ProcessedEventRow.__tablename__]
_POST_COLUMNS = (
    POSTS.c.id,
    POSTS.c.paper_id,
    POSTS.c.local_date,
    POSTS.c.state,
    POSTS.c.message_id,
    POSTS.c.permalink,
    POSTS.c.claimed_by,
    POSTS.c.claimed_at,
    POSTS.c.channel_id,
)
_CHANNEL_COLUMNS = (CHANNELS.c.platform, CHANNELS.c.workspace, CHANNELS.c.external_id)


@cache
def mark_event(*, dialect: str) -> Any:
    """Record an event id unless it is known; a row comes back only when it went in."""
    statement = dialect_insert(dialect=dialect, table=_PROCESSED).values(
        event_id=bindparam("event_id"), seen_at=bindparam("seen_at")
    )
    return statement.on_conflict_do_nothing().returning(_PROCESSED.c.event_id)


@cache
def set_vote(*, dialect: str) -> Any:
    """Set or change a person's one vote: one upsert on UNIQUE(post, user)."""
    statement = dialect_insert(dialect=dialect, table=VOTES).values(
        post_id=bindparam("post_id"),
        user_id=bindparam("user_id"),
        value=bindparam("value"),
        source=bindparam("source"),
        updated_at=bindparam("updated_at"),
        origin=bindparam("origin"),
    )
    return statement.on_conflict_do_update(
        index_elements=["post_id", "user_id"],
        set_={
            "value": statement.excluded.value,
            "source": statement.excluded.source,
            "updated_at": statement.excluded.updated_at,
            "origin": statement.excluded.origin,
        },
    )


@cache
def note_withdrawal(*, dialect: str) -> Any:
    """Keep when a person last withdrew their vote on a post: one upsert."""
    statement = dialect_insert(dialect=dialect, table=WITHDRAWALS).values(
        post_id=bindparam("post_id"),
        user_id=bindparam("user_id"),
        withdrawn_at=bindparam("withdrawn_at"),
        source=bindparam("source"),
    )
    return statement.on_conflict_do_update(
        index_elements=["post_id", "user_id"],
        set_={
            "withdrawn_at": statement.excluded.withdrawn_at,
            "source": statement.excluded.source,
        },
    )


@cache
def add_comment(*, dialect: str) -> Any:
    """Store a comment unless one with its message id exists; a row comes back when it went in."""
    statement = dialect_insert(dialect=dialect, table=COMMENTS).values(
        post_id=bindparam("post_id"),
        channel_id=bindparam("channel_id"),
        user_id=bindparam("user_id"),
        message_id=bindparam("message_id"),
        text=bindparam("text"),
        created_at=bindparam("created_at"),
        edited_at=bindparam("edited_at"),
        deleted=bindparam("deleted"),
        origin=bindparam("origin"),
    )
    return statement.on_conflict_do_nothing().returning(COMMENTS.c.id)


POST_BY_MESSAGE: Select[Any] = (
    select(*_POST_COLUMNS, *_CHANNEL_COLUMNS)
    .join(CHANNELS, CHANNELS.c.id == POSTS.c.channel_id)
    .where(
        CHANNELS.c.platform == bindparam("platform"),
        CHANNELS.c.workspace == bindparam("workspace"),
        CHANNELS.c.external_id == bindparam("channel"),
        POSTS.c.message_id == bindparam("message_id"),
    )
)
POST_BY_ID: Select[Any] = (
    select(*_POST_COLUMNS, *_CHANNEL_COLUMNS)
    .join(CHANNELS, CHANNELS.c.id == POSTS.c.channel_id)
    .where(POSTS.c.id == bindparam("post_id"))
)
VOTE_OF: Select[Any] = select(VOTES.c.value, VOTES.c.source).where(
    VOTES.c.post_id == bindparam("post_id"), VOTES.c.user_id == bindparam("user_id")
)
CLEAR_VOTE: Delete = delete(VOTES).where(
    VOTES.c.post_id == bindparam("post_id"), VOTES.c.user_id == bindparam("user_id")
)
COMMENT_AT: Select[Any] = select(COMMENTS.c.text, COMMENTS.c.deleted).where(
    COMMENTS.c.channel_id == bindparam("channel_id"),
    COMMENTS.c.message_id == bindparam("message_id"),
)
EDIT_COMMENT: Update = (
    update(COMMENTS)
    .where(
        COMMENTS.c.channel_id == bindparam("in_channel"),
        COMMENTS.c.message_id == bindparam("of_message"),
        COMMENTS.c.deleted.is_(False),
    )
    .values(text=bindparam("new_text"), edited_at=bindparam("edited"), origin=bindparam("by"))
)
DELETE_COMMENT: Update = (
    update(COMMENTS)
    .where(
        COMMENTS.c.channel_id == bindparam("in_channel"),
        COMMENTS.c.message_id == bindparam("of_message"),
    )
    .values(deleted=True, text="", origin=bindparam("by"))
)


# On SQLite the same statements go straight to the driver (sqlite3 takes these :name
# parameters, on the session's own connection and transaction, as search does): SQLAlchemy's
# execute costs several times the statement itself. Keep each in step with its Core twin.
SQLITE_TEXT = {
    "mark_event": "INSERT INTO processed_events (event_id, seen_at) VALUES (:event_id, :seen_at) "
    "ON CONFLICT DO NOTHING RETURNING event_id",
    "vote_of": "SELECT value, source FROM votes WHERE post_id = :post_id AND user_id = :user_id",
    "set_vote": "INSERT INTO votes (post_id, user_id, value, source, updated_at, origin) "
    "VALUES (:post_id, :user_id, :value, :source, :updated_at, :origin) "
    "ON CONFLICT (post_id, user_id) DO UPDATE SET value = excluded.value, "
    "source = excluded.source, updated_at = excluded.updated_at, origin = excluded.origin",
    "clear_vote": "DELETE FROM votes WHERE post_id = :post_id AND user_id = :user_id",
    "note_withdrawal": "INSERT INTO vote_withdrawals (post_id, user_id, withdrawn_at, source) "
    "VALUES (:post_id, :user_id, :withdrawn_at, :source) ON CONFLICT (post_id, user_id) "
    "DO UPDATE SET withdrawn_at = excluded.withdrawn_at, source = excluded.source",
    "comment_at": "SELECT text, deleted FROM comments "
    "WHERE channel_id = :channel_id AND message_id = :message_id",
    "add_comment": "INSERT INTO comments (post_id, channel_id, user_id, message_id, text, "
    "created_at, edited_at, deleted, origin) VALUES (:post_id, :channel_id, :user_id, "
    ":message_id, :text, :created_at, :edited_at, :deleted, :origin) "
    "ON CONFLICT DO NOTHING RETURNING id",
    "edit_comment": "UPDATE comments SET text = :new_text, edited_at = :edited, origin = :by "
    "WHERE channel_id = :in_channel AND message_id = :of_message AND deleted = 0",
    "delete_comment": "UPDATE comments SET deleted = 1, text = '', origin = :by "
    "WHERE channel_id = :in_channel AND message_id = :of_message",
}


def core(*, name: str, dialect: str) -> Any:
    """The Core statement of that name for a dialect other than SQLite."""
    built = {
        "mark_event": mark_event,
        "set_vote": set_vote,
        "add_comment": add_comment,
        "note_withdrawal": note_withdrawal,
    }
    if name in built:
        return built[name](dialect=dialect)
    return {
        "vote_of": VOTE_OF,
        "clear_vote": CLEAR_VOTE,
        "comment_at": COMMENT_AT,
        "edit_comment": EDIT_COMMENT,
        "delete_comment": DELETE_COMMENT,
    }[name]
