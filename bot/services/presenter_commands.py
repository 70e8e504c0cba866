"""/paperclub presenters (the rotation: join, leave, away, back), /paperclub present (volunteer)
and /paperclub swap (ask another presenter to trade; `swap accept N` types the swap's button,
bot/services/swap_click.py)."""

from __future__ import annotations

from datetime import date, datetime

from bot.domain import ChannelKey
from bot.meetings.meeting_text import MeetingTextError, read_date
from bot.meetings.rotation import next_presenter
from bot.ports.meetings import SessionRecord
from bot.services.invocation import Invocation
from bot.services.meeting_sessions import HORIZON, bring_up_to_date
from bot.services.presenting import Needs, local_day, members
from bot.services.reply import Reply
from bot.services.swap_click import swap_click
from bot.wording import presenters as words

# How many sessions ahead `presenters` shows.
SHOWN = 4


def _ahead(*, store: Needs, channel: ChannelKey, now: datetime) -> list[SessionRecord]:
    """The channel's sessions ahead that are held."""
    records = store.session_records(channel=channel, since=now, until=now + HORIZON)
    return [r for r in records if not r.cancelled]


def _on(*, records: list[SessionRecord], day: date | None) -> SessionRecord | None:
    """The session on that local date (None: the first)."""
    return next((r for r in records if day is None or local_day(record=r) == day), None)


def presenters(*, call: Invocation, args: list[str]) -> Reply:
    """`presenters` lists; `join`, `leave`, `away DATE`, `back` change the asker's turn."""
    verb = args[0].lower() if args else ""
    channel, user = call.channel, call.user
    if verb == "join" and len(args) == 1:
        with call.uow() as store:
            return Reply(
                message=words.joined(
                    new=store.join_rotation(channel=channel, user=user, now=call.now)
                )
            )
    if verb == "leave" and len(args) == 1:
        with call.uow() as store:
            return Reply(message=words.left(was=store.leave_rotation(channel=channel, user=user)))
    if verb in ("away", "back"):
        try:
            until = read_date(word=args[1]) if verb == "away" and len(args) == 2 else None
        except MeetingTextError:
            return Reply(message=words.USAGE)
        if (verb == "away") != (until is not None):
            return Reply(message=words.USAGE)
        with call.uow() as store:
            member = store.set_away(channel=channel, user=user, until=until)
        return Reply(message=words.away(until=until, member=member))
    if verb:
        return Reply(message=words.USAGE)
    bring_up_to_date(uow=call.uow, channel=channel, now=call.now)
    with call.uow(write=False) as store:
        rotation = store.rotation(channel=channel)
        records = _ahead(store=store, channel=channel, now=call.now)[:SHOWN]
        ahead = []
        for record in records:
            presenter = store.presenter_of(session_id=record.id)
            ahead.append((record, presenter.user if presenter else None))
        unchosen = next((r for r, user in ahead if user is None), None)
        turn = members(store=store, channel=channel)
    up = next_presenter(members=turn, on=local_day(record=unchosen)) if unchosen else None
    return Reply(
        message=words.listed(rotation=rotation, ahead=ahead, next_up=up.id if up else None)
    )


def present(*, call: Invocation, args: list[str]) -> Reply:
    """`present [DATE]`: the asker presents that session (the next one when no date), in
    place of the rotation's choice; not in place of another volunteer."""
    try:
        day = read_date(word=args[0]) if len(args) == 1 else None
    except MeetingTextError:
        return Reply(message=words.NO_SESSION)
    if len(args) > 1:
        return Reply(message=words.NO_SESSION)
    bring_up_to_date(uow=call.uow, channel=call.channel, now=call.now)
    with call.uow() as store:
        record = _on(records=_ahead(store=store, channel=call.channel, now=call.now), day=day)
        if record is None:
            return Reply(message=words.NO_SESSION)
        current = store.presenter_of(session_id=record.id)
        if current is not None and current.user == call.user:
            return Reply(message=words.SAME)
        if current is not None and current.how != "rotation":
            return Reply(message=words.taken(record=record, user=current.user))
        store.assign_presenter(
            session_id=record.id, user=call.user, how="volunteer", now=call.now, replace=True
        )
    return Reply(message=words.volunteered(record=record))


def swap(*, call: Invocation, args: list[str]) -> Reply:
    """`swap DATE`: ask the presenter of that date's session to trade with the asker's next
    session; the ask is posted in the channel with the buttons for the one asked."""
    if len(args) == 2 and args[0].lower() in ("accept", "decline"):  # the buttons, typed
        action = words.ACCEPT if args[0].lower() == "accept" else words.DECLINE
        answer = swap_click(
            uow=call.uow,
            channel=call.channel,
            user=call.user,
            action=action,
            value=args[1],
            now=call.now,
        )
        return answer.reply
    try:
        day = read_date(word=args[0]) if len(args) == 1 else None
    except MeetingTextError:
        day = None
    if day is None:
        return Reply(message=words.SWAP_USAGE)
    with call.uow() as store:
        records = _ahead(store=store, channel=call.channel, now=call.now)
        other = _on(records=records, day=day)
        if other is None:
            return Reply(message=words.NO_SESSION)
        theirs = next(
            (
                r
                for r in records
                if (p := store.presenter_of(session_id=r.id)) and p.user == call.user
            ),
            None,
        )
        asked = store.presenter_of(session_id=other.id)
        if theirs is None:
            return Reply(message=words.NOT_PRESENTING)
        if asked is None:
            return Reply(message=words.NOBODY_THERE)
        if asked.user == call.user:
            return Reply(message=words.SAME)
        number = store.ask_swap(
            channel=call.channel,
            asked_by=call.user,
            asked_of=asked.user,
            their_session=theirs.id,
            other_session=other.id,
            now=call.now,
        )
        asking = store.swap(swap_id=number)
    assert asking is not None  # noted just now
    call.chat.send_notice(
        channel=call.channel, message=words.swap_asked(swap=asking, theirs=theirs, other=other)
    )
    return Reply(message=words.swap_sent(asked_of=asked.user))
