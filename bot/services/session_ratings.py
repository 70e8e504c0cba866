"""After a session: the message asking how it was (worth it? a good discussion?), sent once by
the minute sweep when the session ends (bot/services/session_notices), its counts redrawn at
each click, and members' ratings by button or by `/paperclub sessions rate`.

The message goes within WINDOW of the session's end: a process down longer says nothing (a
question two days late is noise). A cancelled session gets none. A session can be rated from
its end on, by button or command; a rating is one answer a question a member, changeable.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Protocol

from bot.domain import ChannelKey
from bot.meetings.meeting_text import LONGEST
from bot.messages import Message
from bot.ports import UnitOfWork
from bot.ports.meetings import MeetingsStore, Notice, SessionRecord
from bot.ports.papers import PapersStore
from bot.ports.polls import PollsStore
from bot.ports.session_memory import SessionMemoryStore
from bot.services.reply import ClickAnswer, Reply
from bot.wording import ratings as words

KIND = "rating"  # the session notice that asks how it was
WINDOW = timedelta(days=2)
# Sessions are found by their start: one that ended within WINDOW began at most LONGEST before.
LOOK_BACK = WINDOW + LONGEST
# How far back `/paperclub sessions rate|notes` looks for the last session (or a date's).
PAST = timedelta(days=120)


class Needs(MeetingsStore, PollsStore, PapersStore, SessionMemoryStore, Protocol):
    """The roles the ratings use."""


def shown(*, store: Needs, record: SessionRecord, kind: str, now: datetime) -> Message:
    """The rating message as it reads now: the session's paper (if a poll chose one), the
    counts so far and the links added."""
    paper_id = store.chosen_paper(session_id=record.id)
    paper = store.paper(paper_id=paper_id) if paper_id is not None else None
    return words.rating(
        record=record,
        title=paper.title if paper is not None else None,
        ratings=store.ratings(session_id=record.id),
        links=store.session_links(session_id=record.id),
    )


def too_late(*, record: SessionRecord, now: datetime) -> bool:
    """Whether the rating message is past asking: the session cancelled, or WINDOW after it."""
    return record.cancelled or record.session.end + WINDOW <= now


def open_due(
    *, uow: UnitOfWork[Needs], owner: str, channel: ChannelKey, now: datetime
) -> list[tuple[Notice, SessionRecord]]:
    """Open the rating message of each of the channel's sessions that ended within WINDOW
    (once: the notice is unique), each claimed by `owner` as it opens."""
    with uow(write=False) as store:
        records = store.session_records(channel=channel, since=now - LOOK_BACK, until=now)
        ended = [r for r in records if r.session.end <= now and not too_late(record=r, now=now)]
        # Read first: a message already opened takes no write lock at every sweep after.
        asked = {
            r.id for r in ended if any(n.kind == KIND for n in store.notices_of(session_id=r.id))
        }
    opened: list[tuple[Notice, SessionRecord]] = []
    for record in ended:
        if record.id in asked:
            continue
        with uow() as store:
            notice = store.open_notice(session_id=record.id, kind=KIND, now=now)
            if notice is not None:  # claimed as it opens: no other process sends it meanwhile
                store.claim_notice(notice_id=notice.id, owner=owner, now=now, holder=None)
        if notice is not None:
            opened.append((notice, record))
    return opened


def rateable(*, record: SessionRecord | None, channel: ChannelKey, now: datetime) -> bool:
    """Whether a member of `channel` may rate the session now: the channel's own, held, ended."""
    return (
        record is not None
        and record.channel == channel
        and not record.cancelled
        and record.session.end <= now
    )


def past_session(
    *, store: Needs, channel: ChannelKey, now: datetime, day: date | None
) -> SessionRecord | None:
    """The channel's last session that was held and ended (or the one of that local date)."""
    records = store.session_records(channel=channel, since=now - PAST, until=now)
    held = [r for r in records if rateable(record=r, channel=channel, now=now)]
    if day is not None:
        held = [r for r in held if r.session.local_start.date() == day]
    return held[-1] if held else None


def rate_clicked(
    *,
    uow: UnitOfWork[Needs],
    channel: ChannelKey,
    user: str,
    action: str,
    value: str,
    now: datetime,
) -> ClickAnswer:
    """A rating button in `channel` (its value: the session's number): the answer for the
    person, and the message redrawn with the new counts (nothing for another channel's
    session, a cancelled one, or a forged value)."""
    found = words.RATE_ACTIONS.get(action)
    stale = ClickAnswer(reply=Reply(message=words.STALE))
    if found is None or not value.isdigit() or len(value) > 12:
        return stale
    question, answer = found
    with uow() as store:
        record = store.session_record(session_id=int(value))
        if record is None or not rateable(record=record, channel=channel, now=now):
            return stale  # another channel's session: never answered from here
        changed = store.rate_session(
            session_id=record.id, user=user, question=question, answer=answer, now=now
        )
        redrawn = shown(store=store, record=record, kind=KIND, now=now)
        posted = next(
            (n.message_id for n in store.notices_of(session_id=record.id) if n.kind == KIND), None
        )
    said = words.rated(record=record, question=question, answer=answer, changed=changed)
    return ClickAnswer(reply=Reply(message=said), redrawn=redrawn, posted=posted or None)
