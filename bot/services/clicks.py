"""What a button on a message the bot keeps up to date does, beyond a post's votes: a
tray's decision (Add to queue, Not for us), a session's RSVP, a vote in its poll, a swap's
answer and a rating after it. The edge passes the channel the platform names (never one the
button's value could name) and redraws the message it gets back. When the archive cannot take
the click, the person reads "not saved, try again" (the cause is logged in bot/db)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from bot.domain import ChannelKey
from bot.ports import ArchiveUnavailable, Clock, Store, UnitOfWork
from bot.services.embedding import SemanticExtra
from bot.services.poll_clicks import polls_clicked
from bot.services.reply import ClickAnswer, Reply
from bot.services.rsvp_click import rsvp_clicked
from bot.services.session_ratings import rate_clicked
from bot.services.suggestions import decide
from bot.services.swap_click import swap_click
from bot.wording import polls as poll_words
from bot.wording import replies
from bot.wording.suggestions import ADD


@dataclass(frozen=True, slots=True)
class Clicks:
    """The buttons of trays and sessions' messages, on one archive."""

    uow: UnitOfWork[Store]
    clock: Clock
    semantic_extra: SemanticExtra

    @staticmethod
    def _saved(decide: Callable[[], ClickAnswer]) -> ClickAnswer:
        """What `decide` answers; "not saved, try again" when the archive could not take it."""
        try:
            return decide()
        except ArchiveUnavailable:
            return ClickAnswer(reply=Reply(message=replies.NOT_SAVED))

    def tray(self, *, channel: ChannelKey, user: str, action: str, value: str) -> ClickAnswer:
        """A tray button pressed in `channel`: the answer for the person, and the tray
        redrawn (None when it did not change)."""
        how: Literal["promoted", "hidden"] = "promoted" if action == ADD else "hidden"
        return self._saved(
            lambda: decide(
                uow=self.uow,
                channel=channel,
                number=value,
                how=how,
                user=user,
                now=self.clock.now(),
                semantic_extra=self.semantic_extra,
            )
        )

    def vote(self, *, channel: ChannelKey, user: str, action: str, value: str) -> ClickAnswer:
        """A poll's button in `channel` (its value: "<session>.<nomination>", "<session>.clear"
        or "<session>.result"): the ballot changed and the poll redrawn, or (the result's
        button) the final counts for the clicker alone."""
        number, _, what = value.partition(".")
        stale = ClickAnswer(reply=Reply(message=poll_words.STALE))
        if not number.isdigit() or len(number) > 12:
            return stale
        return self._saved(
            lambda: (
                polls_clicked(
                    uow=self.uow,
                    channel=channel,
                    user=user,
                    session_id=int(number),
                    action=action,
                    what=what,
                    now=self.clock.now(),
                )
                or stale
            )
        )

    def swap(self, *, channel: ChannelKey, user: str, action: str, value: str) -> ClickAnswer:
        """Accept or Decline on a swap's message (its value: the swap's number)."""
        now = self.clock.now()
        return self._saved(
            lambda: swap_click(
                uow=self.uow, channel=channel, user=user, action=action, value=value, now=now
            )
        )

    def rate(self, *, channel: ChannelKey, user: str, action: str, value: str) -> ClickAnswer:
        """A rating button on the message after a session (its value: the session's number)."""
        now = self.clock.now()
        return self._saved(
            lambda: rate_clicked(
                uow=self.uow, channel=channel, user=user, action=action, value=value, now=now
            )
        )

    def rsvp(self, *, channel: ChannelKey, user: str, action: str, value: str) -> ClickAnswer:
        """An RSVP button on a reminder in `channel` (its value: "<session>.<kind>"): the
        answer for the person, and that reminder redrawn with the new counts."""
        now = self.clock.now()
        return self._saved(
            lambda: rsvp_clicked(
                uow=self.uow, channel=channel, user=user, action=action, value=value, now=now
            )
        )
