"""An in-memory Chat platform for service tests (like errbot's test backend): it keeps what was
posted and can be told to fail, before or after the message lands."""

from __future__ import annotations

import itertools
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from bot.domain import ChannelKey, PaperCard, PostedMessage
from bot.messages import Buttons, Message, as_plain
from bot.ports import ChatError
from bot.ports.platform import ChannelNames, PostAttempt, Posted, failed_attempt


def _buttons(message: Message) -> set[tuple[str, str]]:
    """A message's buttons as (action, value)."""
    return {
        (button.action, button.value)
        for block in message.blocks
        if isinstance(block, Buttons)
        for button in block.buttons
    }


@dataclass
class MemoryChat:
    """Messages per channel id, direct messages per member; `fail_next` makes the next post
    attempts fail (optionally after landing), `fail_lookups` the next history look-ups,
    `closed_dms` direct messages to those members."""

    posts: dict[str, list[PaperCard]] = field(default_factory=dict)
    notices: dict[str, list[str]] = field(default_factory=dict)
    messages: dict[str, list[Message]] = field(default_factory=dict)
    admins: set[str] = field(default_factory=set)
    private: set[str] = field(default_factory=set)
    failures: list[tuple[str, bool, bool]] = field(default_factory=list)
    lookup_failures: list[str] = field(default_factory=list)
    notice_failures: list[tuple[str, bool]] = field(default_factory=list)
    # Direct messages by the member they went to: the messages, and as plain text.
    directs: dict[str, list[Message]] = field(default_factory=dict)
    direct_texts: dict[str, list[str]] = field(default_factory=dict)
    # Members whose DMs are closed (or who are gone): send_direct to them posts nothing.
    closed_dms: set[str] = field(default_factory=set)
    pauses: list[float] = field(default_factory=list)
    lookups: int = 0
    _ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _by_post: dict[int, PostedMessage] = field(default_factory=dict)
    _notice_ids: dict[str, list[tuple[str, Message]]] = field(default_factory=dict)

    def fail_next(
        self, *, code: str, posted_nothing: bool, after_effect: bool = False, times: int = 1
    ) -> None:
        """The next `times` post attempts fail with ChatError(code); after_effect: the message
        lands first."""
        self.failures.extend([(code, posted_nothing, after_effect)] * times)

    def fail_lookups(self, *, code: str, times: int = 1) -> None:
        """The next `times` history look-ups fail with ChatError(code)."""
        self.lookup_failures.extend([code] * times)

    def try_post(self, *, channel: ChannelKey, card: PaperCard) -> PostAttempt:
        """Keep the card; fail as told."""
        with self._lock:
            failure = self.failures.pop(0) if self.failures else None
            if failure and not failure[2]:
                return failed_attempt(
                    error=ChatError(code=failure[0], hint="test", posted_nothing=failure[1])
                )
            posted = PostedMessage(message_id=f"{next(self._ids)}.000100", permalink=None)
            self.posts.setdefault(channel.channel, []).append(card)
            self._by_post[card.post_id] = posted
            if failure:
                return failed_attempt(
                    error=ChatError(code=failure[0], hint="test", posted_nothing=failure[1])
                )
            return Posted(message=posted)

    def pause(self, *, seconds: float) -> None:
        """Keep the wait instead of waiting."""
        self.pauses.append(seconds)

    def find_post(
        self,
        *,
        channel: ChannelKey,
        post_id: int,
        since: datetime | None,
        card: PaperCard | None = None,
    ) -> PostedMessage | None:
        """What a history search finds; fail as told."""
        with self._lock:
            self.lookups += 1
            if self.lookup_failures:
                raise ChatError(code=self.lookup_failures.pop(0), hint="test", posted_nothing=False)
        return self._by_post.get(post_id)

    def fail_notices(self, *, code: str, posted_nothing: bool, times: int = 1) -> None:
        """The next `times` notices fail with ChatError(code), posting nothing."""
        self.notice_failures.extend([(code, posted_nothing)] * times)

    def send_notice(self, *, channel: ChannelKey, message: Message) -> str | None:
        """Keep the notice (as plain text, and the message itself); fail as told."""
        with self._lock:
            failure = self.notice_failures.pop(0) if self.notice_failures else None
        if failure is not None:
            raise ChatError(code=failure[0], hint="test", posted_nothing=failure[1])
        self.notices.setdefault(channel.channel, []).append(as_plain(message=message))
        self.messages.setdefault(channel.channel, []).append(message)
        message_id = f"{next(self._ids)}.000200"
        self._notice_ids.setdefault(channel.channel, []).append((message_id, message))
        return message_id

    def send_direct(self, *, channel: ChannelKey, user: str, message: Message) -> str | None:
        """Keep the direct message under its member (and as plain text); refused, posting
        nothing, when their DMs are closed."""
        if user in self.closed_dms:
            raise ChatError(code="dms_closed", hint="test", posted_nothing=True)
        with self._lock:
            self.directs.setdefault(user, []).append(message)
            self.direct_texts.setdefault(user, []).append(as_plain(message=message))
            return f"{next(self._ids)}.000300"

    def notice_ids(self, *, channel: str) -> list[str]:
        """The ids of a channel's notices, in order."""
        return [message_id for message_id, _ in self._notice_ids.get(channel, [])]

    def find_notice(self, *, channel: ChannelKey, message: Message, since: datetime) -> str | None:
        """The id of the channel's first notice sharing a button (action and value) with
        `message`; fail as told (the same failures as find_post's)."""
        with self._lock:
            self.lookups += 1
            if self.lookup_failures:
                raise ChatError(code=self.lookup_failures.pop(0), hint="test", posted_nothing=False)
        wanted = _buttons(message)
        for message_id, said in self._notice_ids.get(channel.channel, []):
            if wanted & _buttons(said):
                return message_id
        return None

    def update_post(self, *, channel: ChannelKey, message_id: str, card: PaperCard) -> None:
        """A redraw changes nothing kept here."""

    def is_admin(self, *, channel: ChannelKey, user: str) -> bool:
        """Admins are whoever the test says."""
        return user in self.admins

    def is_private(self, *, channel: ChannelKey) -> bool:
        """Private channels are whichever the test says."""
        return channel.channel in self.private

    def names_of(self, *, channel: ChannelKey, people: Sequence[str]) -> ChannelNames:
        """A channel is named after its id, a person "Name of <id>"."""
        return ChannelNames(
            channel=f"name-{channel.channel}", people={p: f"Name of {p}" for p in people}
        )

    def count(self, channel: str) -> int:
        """How many daily posts a channel got."""
        return len(self.posts.get(channel, []))
