"""Sessions' reminders, sent by the minute sweep, each once (bot/services/notices_once): at
each of the meeting's lead times before a session (meetings.reminders: days on the wall clock,
so a reminder a day ahead stays at the session's local time across a DST change), with the
RSVP buttons and the counts so far.

A process that was down when a reminder fell due sends it late if the session has not begun;
when two fell due meanwhile, only the one nearest the session goes out (the earlier is noted,
unsent: two reminders in a row say nothing more). A reminder is not sent once its session has
begun, nor for a cancelled session.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol

from bot.domain import ChannelKey
from bot.meetings.meeting_text import lead_text
from bot.meetings.reminders import Before, lead_instant
from bot.messages import Message
from bot.ports import Chat, UnitOfWork
from bot.ports.meetings import MeetingsStore, Notice, SessionRecord
from bot.services import notices_once
from bot.services.meeting_sessions import bring_up_to_date
from bot.wording import meetings as words

# A reminder's kind: "reminder:" and its lead time as typed ("reminder:1d").
KIND = "reminder:"
# An unsent reminder is looked at again for this long after it was opened.
RETRY_FOR = timedelta(days=1)
# Reminders are looked for in the sessions starting within this much of now.
AHEAD = timedelta(days=15)


class Needs(MeetingsStore, Protocol):
    """The roles reminders use."""


class _NoticeNoting:
    """notices_once.Noting for a session's notices."""

    def claim(
        self, store: Needs, *, record_id: int, owner: str, now: datetime, holder: str | None
    ) -> bool:
        """Take or renew the notice's claim."""
        return store.claim_notice(notice_id=record_id, owner=owner, now=now, holder=holder)

    def refused(self, store: Needs, *, record_id: int, at: datetime | None) -> None:
        """Note the notice refused (None: tried again)."""
        store.notice_refused(notice_id=record_id, at=at)

    def sent(self, store: Needs, *, record_id: int, message_id: str) -> None:
        """Note the notice's message."""
        store.notice_sent(notice_id=record_id, message_id=message_id)


@dataclass(frozen=True, slots=True)
class ReminderSender:
    """Who sends a platform's reminders: the archive, its Chat, this process's claim name and
    how to tell that a claim's process died."""

    uow: UnitOfWork[Needs]
    chat: Chat
    platform: str
    owner: str
    owner_alive: notices_once.OwnerAlive

    def sender(self) -> notices_once.Sender[Needs]:
        """How its reminders go out once."""
        return notices_once.Sender(
            uow=self.uow,
            noting=_NoticeNoting(),
            chat=self.chat,
            owner=self.owner,
            owner_alive=self.owner_alive,
            what="session reminder",
        )


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


def _open(
    *, reminders: ReminderSender, channel: ChannelKey, now: datetime
) -> list[tuple[Notice, SessionRecord]]:
    """Open the channel's due reminders (one per session: the nearest; the others noted
    unsent), each claimed as it opens."""
    uow = reminders.uow
    with uow(write=False) as store:
        plan = store.meeting_plan(channel=channel)
        records = store.session_records(channel=channel, since=now, until=now + AHEAD)
    if plan is None:
        return []
    opened: list[tuple[Notice, SessionRecord]] = []
    for record in records:
        due = [] if record.cancelled else _due(leads=plan.reminders, record=record, now=now)
        if not due:
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
                store.claim_notice(notice_id=notice.id, owner=reminders.owner, now=now, holder=None)
        if notice is not None:
            opened.append((notice, record))
    return opened


def send_due_reminders(*, reminders: ReminderSender, now: datetime) -> int:
    """Bring the platform's sessions up to date, then send every reminder that is due; how many
    went out (one found in the history counts: it is out). Unsent ones go first."""
    uow, sender = reminders.uow, reminders.sender()
    with uow(write=False) as store:
        channels = store.meeting_channels(platform=reminders.platform, now=now)
        unsent = store.unsent_notices(platform=reminders.platform, since=now - RETRY_FOR)
    sent = 0
    for notice in unsent:
        with uow(write=False) as store:
            record = store.session_record(session_id=notice.session_id)
            if record is None or record.cancelled or record.session.start <= now:
                continue  # too late to remind of it
            message = shown(store=store, record=record, kind=notice.kind, now=now)
        sent += notices_once.send_again(sender=sender, record=notice, shown=message, now=now)
    for channel in channels:
        bring_up_to_date(uow=uow, channel=channel, now=now)
        for notice, record in _open(reminders=reminders, channel=channel, now=now):
            with uow(write=False) as store:
                message = shown(store=store, record=record, kind=notice.kind, now=now)
            sent += notices_once.send(
                sender=sender, record_id=notice.id, channel=channel, shown=message, now=now
            )
    return sent
