"""A channel's sessions, made ahead from its meeting: the stored sessions are kept what the
meeting and its changes say from now to HORIZON (added, moved, cancelled, each change bumping
the session's sequence for calendars), so every reader (reminders, /paperclub sessions, the
calendar feed) reads stored rows. Sessions that began are history and never change.

Two processes that bring one channel up to date at once make each session once (a new one's
key is unique); the loser of that race changes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Protocol

from bot.domain import ChannelKey
from bot.meetings.ballots import Rsvp
from bot.meetings.meeting import Session
from bot.meetings.recurrence import sessions_between
from bot.ports import UnitOfWork
from bot.ports.meetings import MeetingPlan, MeetingsStore, SessionRecord

# How far ahead sessions are made (what a calendar shows of the future).
HORIZON = timedelta(weeks=12)
# A moved session's new time may lie this far from its series date either way: the wider read
# that finds it (a move further out is refused when typed: meeting_commands).
MOVE_REACH = timedelta(days=60)


class Needs(MeetingsStore, Protocol):
    """The roles the sessions use."""


def _key(session: Session) -> tuple[bool, object]:
    """A session's key: (one_off, day)."""
    return (session.one_off, session.day)


def wanted(*, plan: MeetingPlan | None, now: datetime) -> list[Session]:
    """The sessions the meeting holds from `now` to HORIZON (none without a meeting)."""
    if plan is None:
        return []
    return list(
        sessions_between(
            meeting=plan.meeting,
            exceptions=plan.changes,
            one_offs=plan.one_offs,
            start=now,
            end=now + HORIZON,
        )
    )


def bring_up_to_date(*, uow: UnitOfWork[Needs], channel: ChannelKey, now: datetime) -> int:
    """Make the channel's stored sessions ahead what its meeting says; how many changed. Read
    first: a pass with nothing to change takes no write lock."""
    with uow(write=False) as store:
        plan = store.meeting_plan(channel=channel)
        stored = store.session_records(
            channel=channel, since=now - MOVE_REACH, until=now + HORIZON + MOVE_REACH
        )
    ahead = wanted(plan=plan, now=now)
    by_key = {_key(r.session): r for r in stored}
    adds = [s for s in ahead if _key(s) not in by_key]
    changes: list[tuple[int, Session, bool]] = []
    for session in ahead:
        record = by_key.get(_key(session))
        changed = record is not None and (record.cancelled or record.session != session)
        if record is not None and changed and record.session.start > now:  # began: history
            changes.append((record.id, session, False))
    keep = {_key(s) for s in ahead}
    for record in stored:
        if _key(record.session) not in keep and not record.cancelled and record.session.start > now:
            changes.append((record.id, record.session, True))
    if not adds and not changes:
        return 0
    with uow() as store:
        made = sum(store.add_session(channel=channel, session=s, now=now) is not None for s in adds)
        for session_id, session, cancelled in changes:
            store.change_session(
                session_id=session_id, session=session, cancelled=cancelled, now=now
            )
    return made + len(changes)


def upcoming(
    *, store: Needs, channel: ChannelKey, now: datetime, limit: int
) -> list[SessionRecord]:
    """The channel's next sessions, cancelled ones too (a member should see the holiday)."""
    records = store.session_records(channel=channel, since=now, until=now + HORIZON)
    return records[:limit]


def next_held(*, store: Needs, channel: ChannelKey, now: datetime) -> SessionRecord | None:
    """The channel's next session that is not cancelled."""
    records = store.session_records(channel=channel, since=now, until=now + HORIZON)
    return next((r for r in records if not r.cancelled), None)


def answers_of(*, store: Needs, records: list[SessionRecord]) -> Mapping[int, Mapping[str, Rsvp]]:
    """Each session's RSVPs, by session number."""
    return {r.id: store.rsvps(session_id=r.id) for r in records if not r.cancelled}
