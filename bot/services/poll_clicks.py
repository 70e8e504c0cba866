"""A click on a poll's buttons: a paper's (approve it, or rank it next; again: take it back),
"Clear my vote", and the result's "See the votes"."""

from __future__ import annotations

from datetime import datetime

from bot.domain import ChannelKey
from bot.ports import UnitOfWork
from bot.ports.polls import PollSettings
from bot.services.meeting_polls import POLL, Needs, own_ballot, shown, slate_of, tally, toggled
from bot.services.reply import ClickAnswer, Reply
from bot.wording import polls as words


def polls_clicked(
    *,
    uow: UnitOfWork[Needs],
    channel: ChannelKey,
    user: str,
    session_id: int,
    action: str,
    what: str,
    now: datetime,
) -> ClickAnswer | None:
    """The click's answer; None when the button names no poll of the channel that takes it
    (another channel's, a closed one, a forged value)."""
    with uow() as store:
        record = store.session_record(session_id=session_id)
        poll = store.session_poll(session_id=session_id)
        if record is None or poll is None or record.channel != channel:
            return None
        slate = slate_of(store=store, poll=poll)
        settings = store.poll_settings(channel=channel) or PollSettings()
        if action == words.RESULTS:
            if poll.closed_at is None and settings.hidden:
                return None
            result = tally(store=store, poll=poll, settings=settings, slate=slate)
            own = own_ballot(store=store, channel=channel, voter=user)
            mine = tuple(c for c in (own.choices if own else ()) if c in poll.slate)
            return ClickAnswer(
                reply=Reply(message=words.counts_said(slate=slate, result=result, own=mine))
            )
        if poll.closed_at is not None or action not in (words.VOTE, words.CLEAR):
            return None
        before = own_ballot(store=store, channel=channel, voter=user)
        if action == words.CLEAR:
            choices = tuple(c for c in (before.choices if before else ()) if c not in poll.slate)
        elif what.isdigit() and int(what) in poll.slate:
            choices = toggled(ballot=before, nomination=int(what))
        else:
            return None
        store.cast_ballot(channel=channel, voter=user, choices=choices, now=now)
        redrawn = shown(store=store, record=record, kind=POLL, now=now)
        posted = next(
            (n.message_id for n in store.notices_of(session_id=session_id) if n.kind == POLL),
            None,
        )
    mine = tuple(c for c in choices if c in poll.slate)
    return ClickAnswer(
        reply=Reply(message=words.voted(slate=slate, own=mine)),
        redrawn=redrawn,
        posted=posted or None,
    )
