"""Accept or Decline on a swap's message: only the member asked decides, once; accepted, the
two sessions' presenters trade (each told again by direct message). Apart from the commands,
so that the buttons' service (bot/services/clicks.py) needs nothing of the command table."""

from __future__ import annotations

from datetime import datetime

from bot.domain import ChannelKey
from bot.ports import UnitOfWork
from bot.services.presenting import Needs
from bot.services.reply import ClickAnswer, Reply
from bot.wording import presenters as words


def swap_click(
    *,
    uow: UnitOfWork[Needs],
    channel: ChannelKey,
    user: str,
    action: str,
    value: str,
    now: datetime,
) -> ClickAnswer:
    """Accept or Decline on a swap's message: only the member asked decides, once; accepted,
    the two sessions' presenters trade (each told again by direct message)."""
    stale = ClickAnswer(reply=Reply(message=words.STALE))
    if not value.isdigit() or len(value) > 12 or action not in (words.ACCEPT, words.DECLINE):
        return stale
    accepted = action == words.ACCEPT
    with uow() as store:
        asked = store.swap(swap_id=int(value))
        if asked is None or asked.channel != channel or asked.asked_of != user:
            return stale
        sessions = [
            store.session_record(session_id=i) for i in (asked.their_session, asked.other_session)
        ]
        if any(r is None or r.cancelled or r.session.start <= now for r in sessions):
            return stale
        # Both still present what the ask named (another swap or a volunteer may have changed
        # either since): otherwise it is stale, and stays undecided.
        now_presenting = [store.presenter_of(session_id=r.id) if r else None for r in sessions]
        named = (asked.asked_by, asked.asked_of)
        if [p.user if p else None for p in now_presenting] != list(named):
            return stale
        if not store.decide_swap(swap_id=asked.id, accepted=accepted):
            return stale
        if accepted:
            store.assign_presenter(
                session_id=asked.their_session,
                user=asked.asked_of,
                how="swap",
                now=now,
                replace=True,
            )
            store.assign_presenter(
                session_id=asked.other_session,
                user=asked.asked_by,
                how="swap",
                now=now,
                replace=True,
            )
    said = words.swap_decided(swap=asked, accepted=accepted)
    return ClickAnswer(reply=Reply(message=said), redrawn=said)
