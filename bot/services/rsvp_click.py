"""A click on a reminder's RSVP buttons (Going, Maybe, Not going): the member's answer kept,
and the reminder clicked redrawn with the counts."""

from __future__ import annotations

from datetime import datetime

from bot.domain import ChannelKey
from bot.ports import UnitOfWork
from bot.services.meeting_reminders import KIND, Needs, shown
from bot.services.reply import ClickAnswer, Reply
from bot.wording import meetings as words


def rsvp_clicked(
    *,
    uow: UnitOfWork[Needs],
    channel: ChannelKey,
    user: str,
    action: str,
    value: str,
    now: datetime,
) -> ClickAnswer:
    """The answer for the person, and the reminder (its value: "<session>.<kind>") redrawn;
    a stale answer for another channel's session, a cancelled or ended one, or a forged
    value."""
    answer = words.RSVP_ACTIONS.get(action)
    number, _, kind = value.partition(".")
    stale = ClickAnswer(reply=Reply(message=words.STALE))
    if answer is None or not number.isdigit() or len(number) > 12:
        return stale
    with uow() as store:
        record = store.session_record(session_id=int(number))
        if record is None or record.channel != channel:
            return stale  # another channel's session: never answered from here
        if record.cancelled or record.session.end <= now:
            return stale
        changed = store.set_rsvp(session_id=record.id, user=user, answer=answer, now=now)
        notices = store.notices_of(session_id=record.id) if kind.startswith(KIND) else []
        notice = next((n for n in notices if n.kind == kind), None)
        redrawn = shown(store=store, record=record, kind=kind, now=now) if notice else None
    said = words.rsvp_said(record=record, answer=answer, changed=changed)
    posted = notice.message_id if notice is not None else None
    return ClickAnswer(reply=Reply(message=said), redrawn=redrawn, posted=posted or None)
