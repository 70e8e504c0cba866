"""Sessions' reminders: at each of the meeting's lead times before a session
(meetings.reminders: days on the wall clock, so a reminder a day ahead stays at the session's
local time across a DST change), with the RSVP buttons and the counts so far; sent once by the
minute sweep (bot/services/session_notices).

A process that was down when a reminder fell due sends it late if the session has not begun;
when two fell due meanwhile, only the one nearest the session goes out (the earlier is noted,
unsent: two reminders in a row say nothing more). A reminder is not sent once its session has
begun, nor for a cancelled session.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Protocol

from bot.domain import ChannelKey
from bot.meetings.meeting_text import lead_text
from bot.meetings.reminders import Before, lead_instant
from bot.messages import Message
from bot.ports import UnitOfWork
from bot.ports.meetings import MeetingsStore, Notice, SessionRecord
from bot.wording import meetings as words

# A reminder's kind: "reminder:" and its lead time as typed ("reminder:1d").
KIND = "reminder:"
# Reminders are looked for in the sessions starting within this much of now.
AHEAD = timedelta(days=15)


class Needs(MeetingsStore, Protocol):
    """The roles reminders use."""


def kind_of(*, before: Before) -> str:
    """The notice kind of a reminder this far ahead."""
    return KIND + lead_text(before=before)


def shown(*, store: Needs, record: SessionRecord, kind: str, now: datetime) -> Message:
    """A reminder as it reads now (its counts are the session's RSVPs so far)."""
    return words.reminder(
        record=record, kind=kind, rsvps=store.rsvps(session_id=record.id), now=now
    )


def _due(*, leads: tuple[Before, ...], record: SessionRecord, now: datetime) -> list[Before]:
    """The lead times whose reminder is due now, nearest the session last."""
    found = [b for b in leads if lead_instant(session=record.session, before=b) <= now]
    return sorted(found, key=lambda b: lead_instant(session=record.session, before=b))


def open_due(
    *, uow: UnitOfWork[Needs], owner: str, channel: ChannelKey, now: datetime
) -> list[tuple[Notice, SessionRecord]]:
    """Open the channel's due reminders (one per session: the nearest; the others noted
    unsent), each claimed by `owner` as it opens."""
    with uow(write=False) as store:
        plan = store.meeting_plan(channel=channel)
        records = store.session_records(channel=channel, since=now, until=now + AHEAD)
        # Read first: a reminder already opened takes no write lock at every sweep after.
        opened_kinds = {r.id: {n.kind for n in store.notices_of(session_id=r.id)} for r in records}
    if plan is None:
        return []
    opened: list[tuple[Notice, SessionRecord]] = []
    for record in records:
        due = [] if record.cancelled else _due(leads=plan.reminders, record=record, now=now)
        if not due or kind_of(before=due[-1]) in opened_kinds[record.id]:
            continue
        with uow() as store:
            for passed in due[:-1]:
                skipped = store.open_notice(
                    session_id=record.id, kind=kind_of(before=passed), now=now
                )
                if skipped is not None:
                    store.notice_sent(notice_id=skipped.id, message_id="")
            notice = store.open_notice(session_id=record.id, kind=kind_of(before=due[-1]), now=now)
            if notice is not None:  # claimed as it opens: no other process sends it meanwhile
                store.claim_notice(notice_id=notice.id, owner=owner, now=now, holder=None)
        if notice is not None:
            opened.append((notice, record))
    return opened
