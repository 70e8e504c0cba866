"""What a button on a message the bot keeps up to date does, beyond a post's votes: a
tray's decision (Add to queue, Not for us), a session's RSVP, a vote in its poll and a rating
after it. The edge
passes the channel the platform names (never one the button's value could name) and redraws
the message it gets back."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from bot.domain import ChannelKey
from bot.ports import ArchiveUnavailable, Clock, Store, UnitOfWork
from bot.services.embedding import SemanticExtra
from bot.services.meeting_reminders import KIND, shown
from bot.services.poll_clicks import polls_clicked
from bot.services.presenter_commands import swap_click
from bot.services.reply import ClickAnswer, Reply
from bot.services.session_ratings import rate_clicked
from bot.services.suggestions import decide
from bot.wording import meetings as meeting_words
from bot.wording import polls as poll_words
from bot.wording import replies
from bot.wording.suggestions import ADD


@dataclass(frozen=True, slots=True)
class Clicks:
    """The buttons of trays and reminders, on one archive."""

    uow: UnitOfWork[Store]
    clock: Clock
    semantic_extra: SemanticExtra

    def tray(self, *, channel: ChannelKey, user: str, action: str, value: str) -> ClickAnswer:
        """A tray button pressed in `channel`: the answer for the person, and the tray
        redrawn (None when it did not change)."""
        how: Literal["promoted", "hidden"] = "promoted" if action == ADD else "hidden"
        try:
            return decide(
                uow=self.uow,
                channel=channel,
                number=value,
                how=how,
                user=user,
                now=self.clock.now(),
                semantic_extra=self.semantic_extra,
            )
        except ArchiveUnavailable:  # logged where it was raised (bot/db)
            return ClickAnswer(reply=Reply(message=replies.NOT_SAVED))

    def vote(self, *, channel: ChannelKey, user: str, action: str, value: str) -> ClickAnswer:
        """A poll's button in `channel` (its value: "<session>.<nomination>", "<session>.clear"
        or "<session>.result"): the ballot changed and the poll redrawn, or (the result's
        button) the final counts for the clicker alone."""
        number, _, what = value.partition(".")
        stale = ClickAnswer(reply=Reply(message=poll_words.STALE))
        if not number.isdigit() or len(number) > 12:
            return stale
        try:
            return (
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
        except ArchiveUnavailable:
            return ClickAnswer(reply=Reply(message=replies.NOT_SAVED))

    def swap(self, *, channel: ChannelKey, user: str, action: str, value: str) -> ClickAnswer:
        """Accept or Decline on a swap's message (its value: the swap's number)."""
        try:
            return swap_click(
                uow=self.uow,
                channel=channel,
                user=user,
                action=action,
                value=value,
                now=self.clock.now(),
            )
        except ArchiveUnavailable:
            return ClickAnswer(reply=Reply(message=replies.NOT_SAVED))

    def rate(self, *, channel: ChannelKey, user: str, action: str, value: str) -> ClickAnswer:
        """A rating button on the message after a session (its value: the session's number)."""
        try:
            return rate_clicked(
                uow=self.uow,
                channel=channel,
                user=user,
                action=action,
                value=value,
                now=self.clock.now(),
            )
        except ArchiveUnavailable:
            return ClickAnswer(reply=Reply(message=replies.NOT_SAVED))

    def rsvp(self, *, channel: ChannelKey, user: str, action: str, value: str) -> ClickAnswer:
        """An RSVP button on a reminder in `channel` (its value: "<session>.<kind>"): the
        answer for the person, and that reminder redrawn with the new counts."""
        answer = meeting_words.RSVP_ACTIONS.get(action)
        number, _, kind = value.partition(".")
        stale = ClickAnswer(reply=Reply(message=meeting_words.STALE))
        if answer is None or not number.isdigit() or len(number) > 12:
            return stale
        now = self.clock.now()
        try:
            with self.uow() as store:
                record = store.session_record(session_id=int(number))
                if record is None or record.channel != channel:
                    return stale  # another channel's session: never answered from here
                if record.cancelled or record.session.end <= now:
                    return stale
                changed = store.set_rsvp(session_id=record.id, user=user, answer=answer, now=now)
                notice = (
                    next(
                        (
                            n
                            for n in store.notices_of(session_id=record.id)
                            if n.kind == KIND + kind[len(KIND) :]
                        ),
                        None,
                    )
                    if kind.startswith(KIND)
                    else None
                )
                redrawn = shown(store=store, record=record, kind=kind, now=now) if notice else None
        except ArchiveUnavailable:
            return ClickAnswer(reply=Reply(message=replies.NOT_SAVED))
        said = meeting_words.rsvp_said(record=record, answer=answer, changed=changed)
        return ClickAnswer(
            reply=Reply(message=said),
            redrawn=redrawn,
            posted=notice.message_id or None if notice is not None else None,
        )
