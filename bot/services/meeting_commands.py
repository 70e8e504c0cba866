"""/paperclub meeting (admins set the channel's meeting up), /paperclub sessions (anyone sees
the next ones) and /paperclub rsvp (anyone answers). Each change brings the stored sessions up
to date at once, so the answer, the reminders and the calendar agree."""

from __future__ import annotations

from datetime import timedelta

from bot.meetings.ballots import Rsvp
from bot.meetings.meeting import Move, zone_of
from bot.meetings.meeting_text import (
    MeetingTextError,
    read_change,
    read_date,
    read_reminders,
    read_series,
    take_reminders,
)
from bot.meetings.reminders import DEFAULT_OFFSETS
from bot.services import admin, poll_commands, session_memory_commands
from bot.services.invocation import Invocation
from bot.services.meeting_sessions import (
    MOVE_REACH,
    answers_of,
    bring_up_to_date,
    next_held,
    upcoming,
)
from bot.services.reply import Reply
from bot.wording import meetings as words

# How many sessions /paperclub sessions lists.
LISTED = 6


def _zone(*, call: Invocation) -> str:
    """The zone a meeting set without one takes: the channel's schedule's, else the default."""
    with call.uow(write=False) as store:
        followed = store.channel(key=call.channel)
    return (followed.schedule if followed is not None else call.defaults).timezone


def _answer(*, call: Invocation) -> Reply:
    """The meeting as it stands now, with its next session."""
    with call.uow(write=False) as store:
        plan = store.meeting_plan(channel=call.channel)
        first = next_held(store=store, channel=call.channel, now=call.now)
    if plan is None:
        return Reply(message=words.NO_MEETING)
    return Reply(message=words.plan_set(plan=plan, first=first))


def _set(*, call: Invocation, args: list[str]) -> Reply:
    """`meeting set ...`: the series, with the reminders it names (else its reminders kept, the
    default ones for a new meeting), in one write."""
    zone = _zone(call=call)
    today = call.now.astimezone(zone_of(name=zone)).date()
    args, named = take_reminders(words=args)
    meeting = read_series(words=args, zone=zone, today=today)
    with call.uow() as store:
        plan = store.meeting_plan(channel=call.channel)
        kept = plan.reminders if plan is not None else DEFAULT_OFFSETS
        leads = named if named is not None else kept
        store.save_meeting(channel=call.channel, meeting=meeting, reminders=leads, now=call.now)
    return _changed(call=call)


def _changed(*, call: Invocation) -> Reply:
    """Sessions brought up to date, then the meeting as it stands."""
    bring_up_to_date(uow=call.uow, channel=call.channel, now=call.now)
    return _answer(call=call)


def _admin_verb(*, call: Invocation, verb: str, args: list[str]) -> Reply:
    """A change only admins make, on a channel that has a meeting (but `set`)."""
    if verb == "set":
        return _set(call=call, args=args)
    with call.uow(write=False) as store:
        plan = store.meeting_plan(channel=call.channel)
    if plan is None:
        return Reply(message=words.NO_MEETING)
    if verb == "off":
        with call.uow() as store:
            had = store.drop_meeting(channel=call.channel)
        bring_up_to_date(uow=call.uow, channel=call.channel, now=call.now)
        return Reply(message=words.meeting_off(had=had))
    if verb == "poll":
        return poll_commands.set_polls(call=call, args=args)
    if verb == "reminders":
        leads = read_reminders(words=args)
        with call.uow() as store:
            store.save_meeting(
                channel=call.channel, meeting=plan.meeting, reminders=leads, now=call.now
            )
        return _answer(call=call)
    if verb == "undo":
        one_off = bool(args) and args[0].lower() == "once"
        dates = args[1:] if one_off else args
        if len(dates) != 1:
            raise MeetingTextError("say which date: meeting undo 2026-12-24")
        day = read_date(word=dates[0])
        with call.uow() as store:
            found = store.drop_change(channel=call.channel, day=day, one_off=one_off)
        bring_up_to_date(uow=call.uow, channel=call.channel, now=call.now)
        return Reply(message=words.change_undone(found=found, day=f"{day:%a %d %b %Y}"))
    change = read_change(verb=verb, words=args)
    if isinstance(change, Move) and abs(change.to_day - change.day) > MOVE_REACH - timedelta(1):
        raise MeetingTextError("a session moves at most 59 days from its date")
    with call.uow() as store:
        store.add_change(channel=call.channel, change=change)
    return _changed(call=call)


def meeting(*, call: Invocation, args: list[str]) -> Reply:
    """`meeting` (the meeting, for anyone), `meeting help`, and the admins' changes."""
    verb = args[0].lower() if args else ""
    if not verb:
        return _answer(call=call)
    if verb not in ("set", "skip", "move", "once", "undo", "reminders", "poll", "off"):
        return Reply(message=words.MEETING_USAGE)
    if not admin.is_admin(channel=call.channel, user=call.user, admins=call.admins, chat=call.chat):
        return Reply(message=words.ADMINS_ONLY)
    try:
        return _admin_verb(call=call, verb=verb, args=args[1:])
    except MeetingTextError as why:
        return Reply(message=words.bad_text(why=str(why)))
    except ValueError as why:  # the core's own checks (a until before the first date...)
        return Reply(message=words.bad_text(why=str(why)))


def sessions(*, call: Invocation, args: list[str]) -> Reply:
    """`sessions`: the next ones, cancelled ones marked, with RSVP counts and the calendar
    feed's address (where the web archive signs links: its key makes the feed's token);
    `sessions rate ...` and `sessions notes ...` are about past ones (session_memory_commands)."""
    verb = args[0].lower() if args else ""
    if verb in session_memory_commands.VERBS:
        return session_memory_commands.after(call=call, verb=verb, args=args[1:])
    signer = call.signer
    calendar = signer.calendar_link(channel=call.channel) if signer is not None else None
    bring_up_to_date(uow=call.uow, channel=call.channel, now=call.now)
    with call.uow(write=False) as store:
        if store.meeting_plan(channel=call.channel) is None:
            return Reply(message=words.NO_MEETING)
        records = upcoming(store=store, channel=call.channel, now=call.now, limit=LISTED)
        answers = answers_of(store=store, records=records)
        chosen = {r.id: store.presenter_of(session_id=r.id) for r in records}
    presenters = {number: p.user for number, p in chosen.items() if p is not None}
    if not records:
        return Reply(message=words.NO_SESSION)
    return Reply(
        message=words.listed(
            records=records, rsvps=answers, presenters=presenters, calendar=calendar
        )
    )


def rsvp(*, call: Invocation, args: list[str]) -> Reply:
    """`rsvp going|maybe|no [date]`: the answer for the next session (or that date's)."""
    try:
        answer = Rsvp(args[0].lower()) if args else None
        day = read_date(word=args[1]) if len(args) == 2 else None
    except (ValueError, MeetingTextError):
        answer = None
    if answer is None or len(args) > 2:
        return Reply(message=words.RSVP_USAGE)
    bring_up_to_date(uow=call.uow, channel=call.channel, now=call.now)
    with call.uow() as store:
        ahead = [
            r
            for r in upcoming(store=store, channel=call.channel, now=call.now, limit=LISTED * 4)
            if not r.cancelled
        ]
        record = next(
            (r for r in ahead if day is None or r.session.local_start.date() == day), None
        )
        if record is None:
            return Reply(message=words.NO_SESSION)
        changed = store.set_rsvp(session_id=record.id, user=call.user, answer=answer, now=call.now)
    return Reply(message=words.rsvp_said(record=record, answer=answer, changed=changed))
