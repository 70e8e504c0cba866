"""A platform as reconciliation reads it: what each post shows now (its reactions and thread),
kept in memory, with the pages and failures a real one has. It stands in for Slack and Discord
(their fakes are driven in tests/slack and tests/discord); the core's tests use this."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from bot.domain import ChannelKey
from bot.ports import ChatError
from bot.ports.readback import SeenReaction, SeenReply, ThreadPage


@dataclass
class ShownPlatform:
    """Reactions and replies by message id; threads come `page_size` replies a page.
    `before_page` runs before each page is answered (a test makes something happen then)."""

    page_size: int = 2
    reactions: dict[str, list[SeenReaction]] = field(default_factory=dict)
    replies: dict[str, list[SeenReply]] = field(default_factory=dict)
    failing: set[str] = field(default_factory=set)
    before_page: Callable[[], None] = lambda: None
    asked: list[str] = field(default_factory=list)

    def react(self, message_id: str, user: str, name: str) -> None:
        """A person adds a reaction."""
        self.reactions.setdefault(message_id, []).append(
            SeenReaction(user=user, name=name, emoji=name)
        )

    def unreact(self, message_id: str, user: str, name: str) -> None:
        """A person takes a reaction back."""
        self.reactions[message_id] = [
            r for r in self.reactions.get(message_id, []) if (r.user, r.name) != (user, name)
        ]

    def reply(
        self,
        message_id: str,
        reply_id: str,
        text: str,
        *,
        user: str = "U5",
        at: datetime,
        edited: datetime | None = None,
    ) -> None:
        """A person replies in the post's thread (or edits their reply: same id again)."""
        thread = [r for r in self.replies.get(message_id, []) if r.message_id != reply_id]
        thread.append(
            SeenReply(message_id=reply_id, user=user, text=text, written_at=at, edited_at=edited)
        )
        self.replies[message_id] = sorted(thread, key=lambda r: r.written_at)

    def delete(self, message_id: str, reply_id: str) -> None:
        """A person deletes their reply."""
        self.replies[message_id] = [
            r for r in self.replies.get(message_id, []) if r.message_id != reply_id
        ]

    def reactions_on(
        self, *, channel: ChannelKey, message_id: str, names: frozenset[str]
    ) -> list[SeenReaction]:
        """The post's reactions whose base name votes."""
        self.asked.append(f"reactions {message_id}")
        if message_id in self.failing:
            raise ChatError(code="ratelimited", hint="try later", posted_nothing=True)
        shown = self.reactions.get(message_id, [])
        return [r for r in shown if r.name.split("::", 1)[0] in names]

    def thread_page(
        self, *, channel: ChannelKey, message_id: str, cursor: str | None
    ) -> ThreadPage:
        """One page of the thread, from `cursor` (an index)."""
        self.asked.append(f"thread {message_id} {cursor}")
        self.before_page()
        start = int(cursor or 0)
        thread = self.replies.get(message_id, [])
        end = start + self.page_size
        more = str(end) if end < len(thread) else None
        return ThreadPage(replies=tuple(thread[start:end]), cursor=more)
