"""/paperclub nominate (anyone puts a paper forward), /paperclub poll (the open poll, with its
buttons; with numbers, a ballot by them), and the admins' `meeting poll`."""

from __future__ import annotations

from bot import ingest
from bot.meetings.meeting_text import MeetingTextError, read_lead
from bot.ports.polls import CLOSES, OPENS, PollMode, PollSettings
from bot.services import adding
from bot.services.invocation import Invocation
from bot.services.meeting_polls import (
    POLL,
    last_closed,
    open_poll,
    own_ballot,
    shown,
    slate_of,
    tally,
)
from bot.services.reply import Reply
from bot.wording import polls as words

MODES: dict[str, PollMode] = {"approval": "approval", "ranked": "ranked"}
MAX_SIZE = 5  # queue papers a slate takes
MIN_OPEN = 120  # minutes a poll is open at the least
REFERENCE_MAX = 1_000  # characters of a paper typed in the nominate form


def settings_from(*, words_typed: list[str]) -> PollSettings | None:
    """`approval|ranked [hidden] [weighted] [opens 3d] [closes 1d] [size 3]`, or `off`
    (None); MeetingTextError for anything else."""
    typed = [w.lower() for w in words_typed]
    if typed == ["off"]:
        return None
    if not typed or typed[0] not in MODES:
        raise MeetingTextError("say approval or ranked first")
    mode, rest = MODES[typed[0]], typed[1:]
    flags = {"hidden": False, "weighted": False}
    leads = {"opens": OPENS, "closes": CLOSES}
    size = 3
    while rest:
        word = rest.pop(0)
        if word in flags:
            flags[word] = True
        elif word in leads and rest:
            leads[word] = read_lead(word=rest.pop(0))
        elif word == "size" and rest and rest[0].isdigit() and 0 <= int(rest[0]) <= MAX_SIZE:
            size = int(rest.pop(0))
        else:
            raise MeetingTextError(f"{word!r} is not understood here")
    opens, closes = leads["opens"], leads["closes"]
    # Days count on the wall clock, so a day is 23 to 25 hours: a poll is open at least
    # MIN_OPEN as typed, which a DST change cannot close before it opens.
    if opens.days * 1440 + opens.minutes < closes.days * 1440 + closes.minutes + MIN_OPEN:
        raise MeetingTextError("a poll opens at least two hours before it closes")
    return PollSettings(
        mode=mode,
        hidden=flags["hidden"],
        weighted=flags["weighted"],
        opens=opens,
        closes=closes,
        slate=size,
    )


def set_polls(*, call: Invocation, args: list[str]) -> Reply:
    """`meeting poll ...` (admins, checked by the caller)."""
    settings = settings_from(words_typed=args)
    with call.uow() as store:
        store.save_poll_settings(channel=call.channel, settings=settings)
    return Reply(message=words.settings_said(settings=settings))


def nomination_problem(*, text: str) -> str | None:
    """What is wrong with a paper typed in the nominate form, found before anything is
    looked up (plain words, for beside the field); None when `nominate` can take it."""
    if len(text) > REFERENCE_MAX:
        return words.nominate_too_long(limit=REFERENCE_MAX)
    if ingest.draft_from_reference(text=text, origin="") is None:
        return words.NOMINATE_EMPTY
    return None


def nominate(*, call: Invocation, args: list[str]) -> Reply:
    """`nominate <reference>`: the workspace's paper it names (added first when new)."""
    text = " ".join(args)
    draft = ingest.draft_from_reference(text=text, origin=f"nominated by {call.user}")
    if draft is None:
        return Reply(message=words.NOMINATE_USAGE)
    with call.uow(write=False) as store:
        paper = adding.held(store=store, workspace=call.channel.workspace_key, draft=draft)
    if paper is None:
        added = adding.add(
            uow=call.uow,
            lookup=call.lookup,
            text=text,
            channel=call.channel,
            user=call.user,
            now=call.now,
            semantic_extra=call.semantic_extra,
        )
        with call.uow(write=False) as store:
            paper = adding.held(store=store, workspace=call.channel.workspace_key, draft=draft)
        if paper is None:
            return added  # not added (the lookup's answer says why)
    with call.uow() as store:
        nomination, new = store.nominate(
            channel=call.channel, paper_id=paper.id, user=call.user, now=call.now
        )
    return Reply(message=words.nominated(nomination=nomination, new=new))


def poll(*, call: Invocation, args: list[str]) -> Reply:
    """`poll` shows the open poll; `poll 2 3` and `poll clear` vote in it (one subcommand:
    Discord lets a command group hold 25)."""
    return vote(call=call, args=args) if args else show(call=call, args=args)


def show(*, call: Invocation, args: list[str]) -> Reply:
    """`poll`: the open poll with its buttons; else the last week's closed one's counts;
    else whether polls are on."""
    with call.uow(write=False) as store:
        found = open_poll(store=store, channel=call.channel, now=call.now)
        if found is not None:
            return Reply(message=shown(store=store, record=found[0], kind=POLL, now=call.now))
        settings = store.poll_settings(channel=call.channel)
        closed = last_closed(store=store, channel=call.channel, now=call.now)
        if closed is None or settings is None:
            return Reply(message=words.NO_POLL if settings else words.POLLS_OFF)
        slate = slate_of(store=store, poll=closed[1])
        result = tally(store=store, poll=closed[1], settings=settings, slate=slate)
        own = own_ballot(store=store, channel=call.channel, voter=call.user)
        mine = tuple(c for c in (own.choices if own else ()) if c in closed[1].slate)
        return Reply(message=words.counts_said(slate=slate, result=result, own=mine))


def vote(*, call: Invocation, args: list[str]) -> Reply:
    """`poll 2 3` (the poll's numbers; in order for ranked choice) or `poll clear`."""
    clear = [a.lower() for a in args] == ["clear"]
    if not clear and (not args or not all(a.isdigit() and len(a) < 4 for a in args)):
        return Reply(message=words.VOTE_USAGE)
    with call.uow() as store:
        found = open_poll(store=store, channel=call.channel, now=call.now)
        if found is None:
            return Reply(message=words.NO_POLL)
        slate = slate_of(store=store, poll=found[1])
        numbers = words.ballots_by_number(slate=slate)
        if not clear and any(int(a) not in numbers for a in args):
            return Reply(message=words.VOTE_USAGE)
        choices = () if clear else tuple(dict.fromkeys(numbers[int(a)] for a in args))
        # Only this poll's papers change: votes for papers of no slate now are kept.
        before = own_ballot(store=store, channel=call.channel, voter=call.user)
        kept = tuple(c for c in (before.choices if before else ()) if c not in numbers.values())
        store.cast_ballot(
            channel=call.channel, voter=call.user, choices=choices + kept, now=call.now
        )
    return Reply(message=words.voted(slate=slate, own=choices))
