"""Reading a daily post back from its platform: who reacted to it and what its thread holds.

A bot hears votes and comments only while it runs: Discord never replays a gateway event to a
new session, and Slack gives up on an event no connection took. What was said meanwhile is
read back after a start or a reconnect that may have lost events (bot.services.reconcile).
The platform's limits are the edge's to honour: a Chat paces its own calls (Slack's rate tiers,
Discord's route buckets) and waits out a 429's Retry-After before it answers, so a read may
take minutes on a workspace with tight limits; it runs on a thread of its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Protocol, runtime_checkable

from bot.domain import ChannelKey


@dataclass(frozen=True, slots=True)
class SeenReaction:
    """One person's reaction on a post, as the live listener would have passed it:
    `name` as given to Room.react's `reaction` (`+1`, `thumbsup::skin-tone-2`, 👍), `emoji` as
    given to its `emoji` (Discord's spelling, which keys its reactions' presence; on Slack the
    same as `name`)."""

    user: str
    name: str
    emoji: str


@dataclass(frozen=True, slots=True)
class SeenReply:
    """A person's reply in a post's thread as the platform shows it now: its text as the live
    listener would have stored it, when it was written and last edited (None: never edited).
    Bots' messages and the post itself are left out by the edge, as its listener leaves them."""

    message_id: str
    user: str
    text: str
    written_at: datetime
    edited_at: datetime | None


@dataclass(frozen=True, slots=True)
class ThreadPage:
    """One page of a thread, oldest first; `cursor` None on the last page."""

    replies: tuple[SeenReply, ...]
    cursor: str | None


@runtime_checkable
class ReadBack(Protocol):
    """What a Chat that can lose events offers to read them back (the console loses none).
    Each method raises ports.ChatError when the platform cannot be asked (a missing scope, a
    deleted channel or message, the network): the post is tried again at the next run."""

    def reactions_on(
        self, *, channel: ChannelKey, message_id: str, names: frozenset[str]
    ) -> list[SeenReaction]:
        """Every reaction on the post now whose base name (skin tone dropped: `+1` of
        `+1::skin-tone-2`) is one of `names` (the ones that vote), by everyone but the bot, all
        pages read; a platform that pages per emoji asks only for these."""
        ...

    def thread_page(
        self, *, channel: ChannelKey, message_id: str, cursor: str | None
    ) -> ThreadPage:
        """One page of the post's thread (`cursor` None: the first); a post with no thread
        gives an empty last page."""
        ...
