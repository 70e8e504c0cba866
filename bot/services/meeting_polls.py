"""The poll that chooses a session's paper: opened by the minute sweep at its lead time before
the session with a slate (the queue's first papers, nominated for it, beside the members'
nominations), voted on by button or command, closed at its own lead time with one winner, who
becomes the session's paper; its opening and its result are each said once
(bot/services/session_notices).

The tie rule and the counting are the core's (bot/meetings/polls.py, runoff.py). A poll
weighted by RSVP counts going 1, maybe ½, a member who has not answered ½ and no 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Protocol

from bot.domain import ChannelKey
from bot.meetings.ballots import EVEN, Ballot, Nomination, rsvp_weights
from bot.meetings.polls import PollResult, approval_tally
from bot.meetings.reminders import poll_window
from bot.meetings.runoff import instant_runoff
from bot.messages import Message
from bot.ports import UnitOfWork
from bot.ports.meetings import MeetingsStore, Notice, SessionRecord
from bot.ports.papers import PapersStore
from bot.ports.polls import NominationRecord, PollSettings, PollsStore, SessionPoll, Tally
from bot.ports.posts import ChannelsStore
from bot.wording import polls as words
from bot.wording.meetings import when

POLL = "poll"  # the notice that opens a poll
RESULT = "poll-result"  # the notice that says its result
# The most papers on one slate (Discord shows 5 rows of 5 buttons; a poll uses 3 rows).
MAX_SLATE = 10
# Polls are looked for in the sessions starting within this much of now (they open at most
# 14 days ahead: meeting_text.FURTHEST_DAYS), and closed up to a day after their session
# began (a process down through the close).
AHEAD = timedelta(days=15)
BEHIND = timedelta(days=1)


class Needs(MeetingsStore, PollsStore, PapersStore, ChannelsStore, Protocol):
    """The roles the polls use."""


def tally(
    *, store: Needs, poll: SessionPoll, settings: PollSettings, slate: Sequence[NominationRecord]
) -> PollResult:
    """The poll's counts now, by its mode and weights."""
    nominations = [
        Nomination(id=n.id, nominated_at=n.nominated_at, nominated_by=n.nominated_by) for n in slate
    ]
    ballots = store.ballots(channel=slate[0].channel) if slate else []
    weights = (
        rsvp_weights(rsvps=store.rsvps(session_id=poll.session_id), no=0.0, unknown=0.5)
        if settings.weighted
        else EVEN
    )
    count = instant_runoff if settings.mode == "ranked" else approval_tally
    return count(nominations=nominations, ballots=ballots, weights=weights)


def slate_of(*, store: Needs, poll: SessionPoll) -> list[NominationRecord]:
    """The poll's papers, in the order shown."""
    records = store.session_record(session_id=poll.session_id)
    if records is None:
        return []
    found = {n.id: n for n in store.nominations(channel=records.channel, ids=poll.slate)}
    # A paper another session's poll chose since is done: it stands in no other poll.
    return [
        found[i]
        for i in poll.slate
        if i in found and found[i].chosen_for in (None, poll.session_id)
    ]


def _closes(*, record: SessionRecord, settings: PollSettings) -> datetime:
    """When the session's poll closes."""
    return poll_window(
        session=record.session, opens_before=settings.opens, closes_before=settings.closes
    ).closes


def shown(*, store: Needs, record: SessionRecord, kind: str, now: datetime) -> Message:
    """A session's poll message (kind POLL) or its result (RESULT), as it reads now."""
    poll = store.session_poll(session_id=record.id)
    settings = store.poll_settings(channel=record.channel) or PollSettings()
    slate = slate_of(store=store, poll=poll) if poll is not None else []
    if poll is None:
        return words.NO_POLL
    result = tally(store=store, poll=poll, settings=settings, slate=slate)
    if kind == RESULT:
        winner = next((n for n in slate if n.id == poll.winner), None)
        votes = next((c.votes for c in result.counts if c.nomination == poll.winner), 0)
        return words.result_said(record=record, winner=winner, votes=votes)
    voters = sum(
        1 for b in store.ballots(channel=record.channel) if set(b.choices) & set(poll.slate)
    )
    closes = _closes(record=record, settings=settings).astimezone(record.session.local_start.tzinfo)
    return words.poll(
        record=record,
        settings=settings,
        slate=slate,
        result=None if settings.hidden and poll.closed_at is None else result,
        voters=voters,
        closes=f"{closes:%a %d %b %H:%M}",
    )


def _slate(
    *, store: Needs, channel: ChannelKey, settings: PollSettings, now: datetime
) -> list[int]:
    """A new poll's slate, oldest nomination first: the queue's first papers (put forward for
    it) and the members' waiting nominations, at most MAX_SLATE in all, the queue's always in. A
    paper the queue put forward for an earlier poll and no member since is left out: the
    queue has moved on, and only what people put forward waits for a later poll."""
    followed = store.channel(key=channel)
    from_queue: list[int] = []
    # A paper an earlier poll chose may still be queued (a channel without a daily post):
    # the queue is read further, so the slate still gets its share of fresh papers.
    for paper in store.queued(
        workspace=channel.workspace_key, channel=followed, limit=settings.slate + MAX_SLATE
    ):
        if len(from_queue) >= settings.slate:
            break
        nomination, _new = store.nominate(channel=channel, paper_id=paper.id, user="", now=now)
        if nomination.chosen_for is None:
            from_queue.append(nomination.id)
    waiting = store.nominations(channel=channel, ids=None)  # oldest first
    members = [n.id for n in waiting if n.nominated_by and n.id not in from_queue]
    kept = set(members[: max(0, MAX_SLATE - len(from_queue))]) | set(from_queue)
    return [n.id for n in waiting if n.id in kept]


def _open_notice(
    *, store: Needs, session_id: int, kind: str, owner: str, now: datetime
) -> Notice | None:
    """Open a notice of the session, claimed by `owner` as it opens."""
    notice = store.open_notice(session_id=session_id, kind=kind, now=now)
    if notice is not None:
        store.claim_notice(notice_id=notice.id, owner=owner, now=now, holder=None)
    return notice


def open_due(
    *, uow: UnitOfWork[Needs], owner: str, channel: ChannelKey, now: datetime
) -> list[tuple[Notice, SessionRecord]]:
    """Open the channel's polls that are due and close those whose time came (each once:
    the poll's row and the result's notice are unique); the notices to send."""
    with uow(write=False) as store:
        settings = store.poll_settings(channel=channel)
        records = store.session_records(channel=channel, since=now - BEHIND, until=now + AHEAD)
        polls = {r.id: store.session_poll(session_id=r.id) for r in records}
    due: list[tuple[Notice, SessionRecord]] = []
    for record in records:
        poll = polls[record.id]
        if poll is not None and poll.closed_at is None and (settings is None or record.cancelled):
            with uow() as store:  # polls turned off, or the session cancelled: closed, unsaid
                store.close_poll(session_id=record.id, winner=None, now=now)
            continue
        if poll is not None and record.cancelled and poll.winner is not None:
            with uow(write=False) as store:
                held = store.nominations(channel=channel, ids=[poll.winner])
            if any(n.chosen_for == record.id for n in held):
                with uow() as store:  # cancelled after its poll chose: the paper is free again
                    store.release_choice(session_id=record.id)
            continue
        if settings is None:
            continue
        try:
            window = poll_window(
                session=record.session, opens_before=settings.opens, closes_before=settings.closes
            )
        except ValueError:  # a DST change closes this session's window before it opens
            continue
        notice: Notice | None = None
        if poll is None and not record.cancelled and window.opens <= now < window.closes:
            with uow() as store:
                slate = _slate(store=store, channel=channel, settings=settings, now=now)
                if slate and store.open_poll(session_id=record.id, slate=slate, now=now):
                    notice = _open_notice(
                        store=store, session_id=record.id, kind=POLL, owner=owner, now=now
                    )
        elif poll is not None and poll.closed_at is None and now >= window.closes:
            with uow() as store:
                shown_slate = slate_of(store=store, poll=poll)
                result = tally(store=store, poll=poll, settings=settings, slate=shown_slate)
                kept = Tally(
                    mode=settings.mode,
                    counts=tuple((c.nomination, float(c.votes)) for c in result.counts),
                )
                if store.close_poll(
                    session_id=record.id, winner=result.winner, now=now, tally=kept
                ):
                    notice = _open_notice(
                        store=store, session_id=record.id, kind=RESULT, owner=owner, now=now
                    )
        if notice is not None:
            due.append((notice, record))
    return due


def toggled(*, ballot: Ballot | None, nomination: int) -> tuple[int, ...]:
    """A ballot after a click on a paper: added at the end (approved, or ranked next), or
    taken out when it was in."""
    choices = ballot.choices if ballot is not None else ()
    if nomination in choices:
        return tuple(c for c in choices if c != nomination)
    return (*choices, nomination)


def own_ballot(*, store: Needs, channel: ChannelKey, voter: str) -> Ballot | None:
    """A member's standing ballot in the channel."""
    return next((b for b in store.ballots(channel=channel) if b.voter == voter), None)


def open_poll(
    *, store: Needs, channel: ChannelKey, now: datetime
) -> tuple[SessionRecord, SessionPoll] | None:
    """The channel's open poll (the next session's with one not closed), if any."""
    for record in store.session_records(channel=channel, since=now - BEHIND, until=now + AHEAD):
        poll = store.session_poll(session_id=record.id)
        if poll is not None and poll.closed_at is None and not record.cancelled:
            return record, poll
    return None


def session_line(*, record: SessionRecord) -> str:
    """The session a poll is for, as a line of text."""
    return when(session=record.session)


def last_closed(
    *, store: Needs, channel: ChannelKey, now: datetime
) -> tuple[SessionRecord, SessionPoll] | None:
    """The channel's poll that closed last, within the last week (what `/paperclub poll`
    shows when none is open: what won, and by how much)."""
    found = None
    for record in store.session_records(
        channel=channel, since=now - timedelta(days=7), until=now + AHEAD
    ):
        poll = store.session_poll(session_id=record.id)
        if poll is not None and poll.closed_at is not None and not record.cancelled:
            found = (record, poll)
    return found
