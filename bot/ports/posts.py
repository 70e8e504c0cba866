"""The store's part for channels and what is posted in them: followed channels, the daily
post's claim and delivery, best-voted posts, weekly recaps."""

from __future__ import annotations

from datetime import date, datetime
from typing import Protocol

from bot.domain import (
    Channel,
    ChannelKey,
    Post,
    Recap,
    Schedule,
    TopEntry,
    VoteCount,
    WeeklyRecap,
)


class ChannelsStore(Protocol):
    """Followed channels, their schedule and flags, inside one unit of work."""

    def channels(self) -> list[Channel]:
        """Every channel that follows the list."""
        ...

    def channel(self, *, key: ChannelKey) -> Channel | None:
        """A followed channel, or None."""
        ...

    def save_channel(self, *, key: ChannelKey, schedule: Schedule, private: bool) -> Channel:
        """Follow a channel with this schedule (or change its schedule and privacy)."""
        ...

    def add_channel_if_missing(
        self, *, key: ChannelKey, schedule: Schedule, private: bool
    ) -> Channel:
        """Follow a channel unless it already is followed (its own schedule then stays)."""
        ...

    def set_channel_flags(
        self,
        *,
        channel: Channel,
        paused: bool | None = None,
        empty_notice_sent: bool | None = None,
        private: bool | None = None,
    ) -> None:
        """Pause/resume a channel, note that it was told its queue is empty, or its privacy."""
        ...


class PostsStore(Protocol):
    """Daily posts: claimed, delivered or released, and their votes, inside one unit of work."""

    def post_on(self, *, channel: Channel, local_date: date) -> Post | None:
        """The channel's post of that local date, in any state."""
        ...

    def claim_post(
        self, *, channel: Channel, local_date: date, paper_id: int, owner: str, now: datetime
    ) -> Post | None:
        """Record the intent to post; None when the channel already has a post that day."""
        ...

    def take_over(self, *, post: Post, owner: str, now: datetime) -> bool:
        """Move a pending post's claim to `owner`, if nobody took it over meanwhile."""
        ...

    def mark_posted(self, *, post_id: int, message_id: str, permalink: str | None) -> None:
        """The post is in the channel: keep its message id and permalink."""
        ...

    def release_post(self, *, post: Post) -> None:
        """The platform refused the post outright: forget the intent; the paper is queued again."""
        ...

    def pending_posts(self) -> list[tuple[Post, Channel]]:
        """Posts whose intent is recorded but whose message id is not."""
        ...

    def vote_count(self, *, post_id: int) -> VoteCount:
        """Thumbs up and down on a post."""
        ...

    def top_posts(
        self,
        *,
        channel: Channel | None,
        since: date | None,
        until: date | None = None,
        limit: int = 5,
    ) -> list[TopEntry]:
        """Posts of a period with their votes and live comments, best voted first."""
        ...


class RecapsStore(Protocol):
    """Weekly recaps: on or off, claimed and settled like posts, inside one unit of work."""

    def set_recap(self, *, channel: Channel, recap: WeeklyRecap | None) -> None:
        """Turn the weekly recap on at a weekday and time, or off."""
        ...

    def claim_recap(self, *, channel: Channel, local_date: date, now: datetime) -> int | None:
        """Record the intent to send a recap; None when that date already has one."""
        ...

    def settle_recap(self, *, recap_id: int, message_id: str | None) -> None:
        """The recap went out (keep its message id) or was refused outright (forget it)."""
        ...

    def recap_before(self, *, channel: Channel, local_date: date) -> Recap | None:
        """The channel's latest posted paper before that date, with its votes and comments."""
        ...
