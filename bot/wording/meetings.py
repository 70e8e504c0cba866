"""What people read about meetings: the commands' help and answers, the sessions list and a
session's reminder with its RSVP buttons. A place is shown as plain text, whatever it holds."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

from bot.meetings.ballots import Rsvp
from bot.meetings.meeting import Meeting, Move, OneOff, Session, Skip, zone_of
from bot.meetings.meeting_text import lead_text
from bot.messages import (
    Button,
    Buttons,
    Code,
    Link,
    Listing,
    Message,
    Paragraph,
    PersonRef,
    Plain,
    Run,
    Strong,
    line,
    runs,
)
from bot.messages import message as make
from bot.ports.meetings import MeetingPlan, SessionRecord

# The RSVP buttons' actions, each named for its answer.
RSVP_ACTIONS = {f"rsvp_{answer.value}": answer for answer in Rsvp}
RSVP_LABELS = {Rsvp.GOING: "✅ Going", Rsvp.MAYBE: "🤔 Maybe", Rsvp.NO: "❌ Not going"}
ANSWERED = {Rsvp.GOING: "going", Rsvp.MAYBE: "a maybe", Rsvp.NO: "not going"}

MEETING_ABOUT = "This channel's meeting: set, skip, move, once, reminders, off (admins)"
MEETING_WHAT = (
    "set thu 16:00 [Europe/Berlin] [for 90m] [every 2 weeks] [at <place>] | skip <date>"
    " | move <date> to <date> <time> | once <date> <time> | undo <date> | reminders 1d 30m"
    " | poll approval|ranked [hidden] [weighted] | off"
)
MEETING_HELP = runs(
    Code("/paperclub meeting set thu 16:00 Europe/Berlin at Room 2"),
    ": a weekly meeting (admins; also ",
    Code("skip"),
    ", ",
    Code("move"),
    ", ",
    Code("once"),
    ", ",
    Code("undo"),
    ", ",
    Code("reminders 1d 30m"),
    ", ",
    Code("off"),
    ")",
)
SESSIONS_ABOUT = "The next meeting sessions and the calendar feed; rate past ones, add their notes"
SESSIONS_HELP = runs(
    Code("/paperclub sessions"), ": the next sessions, and a calendar to subscribe to"
)
RSVP_ABOUT = "Say whether you come to the next session: going, maybe or no"
RSVP_WHAT = "going | maybe | no [date]"
RSVP_HELP = runs(Code("/paperclub rsvp going"), ": tell the group you come (or maybe, or no)")

# The admins' words after `meeting poll approval`, wherever they are shown.
POLL_OPTIONS = runs(
    Code("ranked"),
    "; then any of ",
    Code("hidden"),
    ", ",
    Code("weighted"),
    ", ",
    Code("opens 3d"),
    ", ",
    Code("closes 1d"),
    ", ",
    Code("size 3"),
    "; or ",
    Code("off"),
)
MEETING_USAGE = make(
    line("Usage (admins):"),
    Listing(
        items=(
            runs(Code("/paperclub meeting set thu 16:00 Europe/Berlin for 90m at Room 2")),
            runs(Code("/paperclub meeting set tue 12:30 every 2 weeks reminders 1d,2h at Zoom")),
            runs(Code("/paperclub meeting skip 2026-12-24"), " (a holiday)"),
            runs(Code("/paperclub meeting move 2026-12-24 to 2026-12-23 16:00")),
            runs(Code("/paperclub meeting once 2027-01-05 16:00"), " (a session outside it)"),
            runs(Code("/paperclub meeting undo 2026-12-24"), " (a skip or a move taken back)"),
            runs(Code("/paperclub meeting reminders 1d 30m"), " (or ", Code("off"), ")"),
            runs(
                Code("/paperclub meeting poll approval"),
                " (or ",
                *POLL_OPTIONS,
                "): a poll chooses each session's paper",
            ),
            runs(Code("/paperclub meeting off")),
        ),
        ordered=False,
    ),
)
ADMINS_ONLY = make(
    line("Only admins change the meeting; ", Code("/paperclub sessions"), " shows it.")
)
NO_MEETING = make(
    line(
        "This channel has no meeting yet. Admins set one with ",
        Code("/paperclub meeting set thu 16:00"),
        ".",
    )
)
RSVP_USAGE = make(
    line(
        "Usage: ",
        Code("/paperclub rsvp going"),
        " (or ",
        Code("maybe"),
        ", ",
        Code("no"),
        "), for the next session; add a date for another.",
    )
)
NO_SESSION = make(line("There is no session ahead to answer for."))
STALE = make(line("That session is not ahead any more, or was cancelled."))
# A place longer than this is cut in the sessions list, where it is repeated on every line: six
# places of 500 characters leave no room for the counts on Discord (2,000) or in a Slack
# section (3,000). The reminders and the meeting's own answer show it whole.
LISTED_PLACE = 80


def bad_text(*, why: str) -> Message:
    """A meeting command that could not be read, with what to type."""
    return make(line(Plain(why + ". "), "See ", Code("/paperclub meeting help"), "."))


def when(*, session: Session) -> str:
    """ "Thu 17 Dec 2026, 16:00–17:00 Europe/Berlin" on the meeting's wall clock."""
    zone = zone_of(name=session.zone)
    start, end = session.start.astimezone(zone), session.end.astimezone(zone)
    return f"{start:%a %d %b %Y}, {start:%H:%M}–{end:%H:%M} {session.zone}"


def _series(*, meeting: Meeting) -> str:
    """ "every Thursday at 16:00 Europe/Berlin for 60 minutes"."""
    day = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
    every = "every" if meeting.every_weeks == 1 else f"every {meeting.every_weeks} weeks on"
    minutes = int(meeting.duration.total_seconds() // 60)
    return (
        f"{every} {day[meeting.weekday - 1]} at {meeting.start:%H:%M} {meeting.zone}"
        f" for {minutes} minutes"
    )


def _place_runs(*, place: str, limit: int | None = None) -> tuple[Run, ...]:
    """A place: a link when it is one, else plain text; its words cut at `limit` characters
    (a link still leads to the whole address)."""
    shown = place if limit is None or len(place) <= limit else place[: limit - 1] + "…"
    if place.startswith(("https://", "http://")) and " " not in place:
        return (Plain(" · "), Link(url=place, label=shown))
    return (Plain(" · " + shown),) if place else ()


def _change_runs(*, change: Skip | Move | OneOff) -> tuple[Run, ...]:
    """One change of the series, in a line."""
    if isinstance(change, Skip):
        return runs("skipped: ", Strong(f"{change.day:%a %d %b %Y}"))
    if isinstance(change, Move):
        return runs(
            "moved: ",
            Strong(f"{change.day:%a %d %b}"),
            f" to {change.to_day:%a %d %b} {change.to_time:%H:%M}",
        )
    return runs("one-off: ", Strong(f"{change.day:%a %d %b %Y} {change.at:%H:%M}"))


def plan_set(*, plan: MeetingPlan, first: SessionRecord | None) -> Message:
    """The answer to `meeting set` and to a change: the series, its reminders, the next session."""
    leads = ", ".join(lead_text(before=b) for b in plan.reminders) or "none"
    blocks: list[Paragraph | Listing] = [
        line(
            "The meeting: ",
            Strong(_series(meeting=plan.meeting)),
            *_place_runs(place=plan.meeting.place),
        ),
        line(f"Reminders: {leads} before.", quiet=True),
    ]
    changes = [*plan.changes, *plan.one_offs]
    if changes:
        blocks.append(Listing(items=tuple(_change_runs(change=c) for c in changes), ordered=False))
    if first is not None:
        blocks.append(line("Next session: ", Strong(when(session=first.session))))
    return Message(blocks=tuple(blocks))


def meeting_off(*, had: bool) -> Message:
    """The answer to `meeting off`."""
    if not had:
        return NO_MEETING
    return make(line("The meeting is off; its sessions ahead are cancelled (calendars follow)."))


def change_undone(*, found: bool, day: str) -> Message:
    """The answer to `meeting undo DATE`."""
    return make(line(f"{day}: " + ("back as the series has it." if found else "nothing to undo.")))


def counts_runs(*, rsvps: Mapping[str, Rsvp]) -> tuple[Run, ...]:
    """ "Going 3 · Maybe 1 · Not going 0"."""
    tally = {answer: sum(1 for a in rsvps.values() if a == answer) for answer in Rsvp}
    return runs(
        f"Going {tally[Rsvp.GOING]} · Maybe {tally[Rsvp.MAYBE]} · Not going {tally[Rsvp.NO]}"
    )


def listed(
    *,
    records: Sequence[SessionRecord],
    rsvps: Mapping[int, Mapping[str, Rsvp]],
    presenters: Mapping[int, str],
    calendar: str | None,
) -> Message:
    """The answer to /paperclub sessions: the next sessions (cancelled ones marked), then
    the calendar feed's address."""
    items: list[tuple[Run, ...]] = []
    for record in records:
        if record.cancelled:
            items.append(runs(Strong(when(session=record.session)), " · cancelled"))
            continue
        items.append(
            (
                Strong(when(session=record.session)),
                *_place_runs(place=record.session.place, limit=LISTED_PLACE),
                *(
                    (Plain(" · 🎤 "), PersonRef(presenters[record.id]))
                    if record.id in presenters
                    else ()
                ),
                Plain(" · "),
                *counts_runs(rsvps=rsvps.get(record.id, {})),
            )
        )
    blocks: list[Paragraph | Listing] = [
        line("The next sessions:"),
        Listing(items=tuple(items), ordered=False),
    ]
    if calendar:
        blocks.append(
            line("Calendar: ", Link(url=calendar, label="subscribe (iCalendar)"), quiet=True)
        )
    return Message(blocks=tuple(blocks))


def _lead_words(*, session: Session, now: datetime) -> str:
    """ "in 1 day", "in 30 minutes": how far ahead the session is now."""
    minutes = max(0, int((session.start - now).total_seconds() // 60))
    if minutes >= 36 * 60:
        return f"in {round(minutes / 1440)} days"
    if minutes >= 120:
        return f"in {round(minutes / 60)} hours"
    return f"in {minutes} minutes"


def reminder(
    *, record: SessionRecord, kind: str, rsvps: Mapping[str, Rsvp], now: datetime
) -> Message:
    """A session's reminder: when and where, how many come, and the RSVP buttons (their
    value names the session and the reminder, so each message is found by its own)."""
    session = record.session
    return Message(
        blocks=(
            line(
                "📅 ",
                Strong("Reading group"),
                f" {_lead_words(session=session, now=now)}: ",
                Strong(when(session=session)),
                *_place_runs(place=session.place),
            ),
            line(*counts_runs(rsvps=rsvps), quiet=True),
            Buttons(
                buttons=tuple(
                    Button(label=RSVP_LABELS[answer], action=action, value=f"{record.id}.{kind}")
                    for action, answer in RSVP_ACTIONS.items()
                )
            ),
        )
    )


def rsvp_said(*, record: SessionRecord, answer: Rsvp, changed: bool) -> Message:
    """The answer to an RSVP, by button or command."""
    said = "You are " + ANSWERED[answer] if changed else "You were " + ANSWERED[answer] + " already"
    return make(line(f"{said} for ", Strong(when(session=record.session)), "."))
