"""Who presents each session: the rotation chooses a presenter once the session is CHOSEN_AHEAD
away (the member who presented least recently, never-presented first, away dates honoured:
bot/meetings/rotation.py), unless a member volunteered first; a swap the other presenter
accepts trades two sessions. The presenter is told by a direct message when chosen, and again
the day before (at the first reminder's lead, or a day ahead without reminders).

Each direct message is sent at most once: its record is opened (unique per session, kind and
presenter) before the send. A crash between the two leaves it unsent, and it is not tried
again: a direct message cannot be looked for in the channel's history, and a presenter told
twice is worse than a presenter told by the channel's reminder alone.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import date, datetime, timedelta
from typing import Protocol

from bot.domain import ChannelKey
from bot.meetings.reminders import Before, lead_instant
from bot.meetings.rotation import Member, next_presenter
from bot.ports import Chat, ChatError, UnitOfWork
from bot.ports.meetings import MeetingsStore, SessionRecord
from bot.ports.presenters import PresentersStore
from bot.wording import presenters as words

log = logging.getLogger("paperclub")

# A session's presenter is chosen this far ahead.
CHOSEN_AHEAD = timedelta(days=7)
CHOSEN = "dm:chosen:"  # the notice kinds of the two direct messages, by presenter
BEFORE = "dm:before:"


class Needs(MeetingsStore, PresentersStore, Protocol):
    """The roles the presenters use."""


def members(*, store: Needs, channel: ChannelKey) -> list[Member]:
    """The rotation as the core reads it: each member's last date presenting (assignments
    ahead count: a member chosen for next week is not chosen again before everyone)."""
    last: dict[str, date] = {}
    for day, user in store.presenters(channel=channel):
        last[user] = max(day, last.get(user, day))
    return [
        Member(
            id=m.user,
            opted_in_at=m.opted_in_at,
            last_presented=last.get(m.user),
            away_until=m.away_until,
        )
        for m in store.rotation(channel=channel)
    ]


def local_day(*, record: SessionRecord) -> date:
    """A session's date on its meeting's wall clock."""
    return record.session.local_start.date()


def choose_due(*, uow: UnitOfWork[Needs], channel: ChannelKey, now: datetime) -> int:
    """Choose the presenter of each session coming within CHOSEN_AHEAD that has none, in
    date order (each choice counts for the next); how many were chosen."""
    with uow(write=False) as store:
        records = store.session_records(channel=channel, since=now, until=now + CHOSEN_AHEAD)
        # Read first: a session with its presenter takes no write lock at every sweep.
        open_ = [
            r for r in records if not r.cancelled and store.presenter_of(session_id=r.id) is None
        ]
        if not open_ or not store.rotation(channel=channel):
            return 0
    chosen = 0
    for record in open_:
        with uow() as store:
            if store.presenter_of(session_id=record.id) is not None:
                continue
            picked = next_presenter(
                members=members(store=store, channel=channel), on=local_day(record=record)
            )
            if picked is not None:
                chosen += store.assign_presenter(
                    session_id=record.id, user=picked.id, how="rotation", now=now, replace=False
                )
    return chosen


def _told_before_at(*, record: SessionRecord, leads: Sequence[Before]) -> datetime:
    """When the presenter is told the session is near: at the furthest reminder, or a day
    ahead without reminders."""
    furthest = max(leads, key=lambda b: (b.days, b.minutes), default=Before(days=1))
    return lead_instant(session=record.session, before=furthest)


def tell_due(*, uow: UnitOfWork[Needs], chat: Chat, channel: ChannelKey, now: datetime) -> int:
    """Send the presenters' direct messages that are due, each at most once; how many went."""
    with uow(write=False) as store:
        plan = store.meeting_plan(channel=channel)
        records = store.session_records(channel=channel, since=now, until=now + CHOSEN_AHEAD)
        chosen = {r.id: store.presenter_of(session_id=r.id) for r in records}
        kinds = {r.id: {n.kind for n in store.notices_of(session_id=r.id)} for r in records}
    leads = plan.reminders if plan is not None else ()
    sent = 0
    for record in records:
        presenter = chosen[record.id]
        if record.cancelled or presenter is None:
            continue
        due = [(CHOSEN, words.chosen(record=record, how=presenter.how))]
        if now >= _told_before_at(record=record, leads=leads):
            due = [(BEFORE, words.tomorrow(record=record))]  # chosen late: one message says it
        for kind, message in due:
            if kind + presenter.user in kinds[record.id]:
                continue  # said already (read first: no write lock at every sweep)
            with uow() as store:
                opened = store.open_notice(
                    session_id=record.id, kind=kind + presenter.user, now=now
                )
                if opened is None:
                    continue
                # Noted before the send: at most once (see the module's docstring).
                store.notice_sent(notice_id=opened.id, message_id="")
            try:
                chat.send_direct(channel=channel, user=presenter.user, message=message)
            except ChatError as error:
                log.warning(
                    "could not tell %s's presenter: %s (%s)", channel, error.code, error.hint
                )
                continue
            with uow() as store:
                store.presenter_told(session_id=record.id, now=now)
            sent += 1
    return sent
