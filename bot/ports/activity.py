"""The Store's part for what members do: votes, comments, the events already applied, and
a person's own recent activity."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Protocol

from bot.domain import ChannelKey, CommentState, Post, VoteState
from bot.domain.home import OwnComment, OwnVote

# How a vote's or comment's current state reached the archive: an event or a click as it
# happened, or read back from the platform after events were lost (bot.services.reconcile).
LIVE = "live"
RECONCILED = "reconciled"


class ActivityStore(Protocol):
    """Votes, comments and processed events, inside one unit of work."""

    def mark_event(self, *, event_id: str, now: datetime) -> bool:
        """Record an event id; False when it was applied before (a retry or a redelivery)."""
        ...

    def forget_event(self, *, event_id: str) -> None:
        """Forget one event id (a state it stood for is over: a reaction taken back)."""
        ...

    def prune_events(self, *, before: datetime) -> int:
        """Forget event ids older than any platform retries; how many went."""
        ...

    def post_by_message(self, *, channel: ChannelKey, message_id: str) -> Post | None:
        """The daily post that is this message, if it is one."""
        ...

    def post_by_id(self, *, post_id: int) -> Post | None:
        """A post by id."""
        ...

    def vote_of(self, *, post_id: int, user: str) -> VoteState | None:
        """A person's current vote on a post."""
        ...

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
        """Set (or change) a person's one vote on a post."""
        ...

    def clear_vote(self, *, post_id: int, user: str, now: datetime, source: str) -> None:
        """Withdraw a person's vote, keeping when and what withdrew it (`source`: a button,
        or the reaction taken back): a read-back older than that, or one finding a reaction a
        button's withdrawal overruled, does not bring it back."""
        ...

    def comment_at(self, *, post: Post, message_id: str) -> CommentState | None:
        """The comment with this message id in the post's channel, live or deleted."""
        ...

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
        """Store a comment (written at `now`; edited at `edited_at`, or at `now` when only
        `edited`); False when one with this message id exists."""
        ...

    def edit_comment(
        self, *, post: Post, message_id: str, text: str, now: datetime, origin: str = LIVE
    ) -> None:
        """Replace a live comment's text."""
        ...

    def delete_comment(self, *, post: Post, message_id: str, origin: str = LIVE) -> None:
        """Mark a comment deleted and forget its text."""
        ...


class HomeStore(Protocol):
    """A person's own recent votes and comments (their home view), inside one unit of work."""

    def votes_by(self, *, user: str, channels: Sequence[ChannelKey], limit: int) -> list[OwnVote]:
        """A person's latest votes in these channels, newest first, with the papers' titles."""
        ...

    def comments_by(
        self, *, user: str, channels: Sequence[ChannelKey], limit: int
    ) -> list[OwnComment]:
        """A person's latest live comments in these channels, newest first, with titles."""
        ...
