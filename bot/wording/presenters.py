"""What people read about presenters: the rotation, a presenter's direct messages, and a swap
with its buttons. People are named by PersonRef: each platform shows a name and pings nobody."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from bot.messages import (
    Button,
    Buttons,
    Code,
    Listing,
    Message,
    Paragraph,
    PersonRef,
    Run,
    Strong,
    line,
    runs,
)
from bot.messages import message as make
from bot.ports.meetings import SessionRecord
from bot.ports.presenters import How, RotationMember, Swap
from bot.wording.meetings import when

ACCEPT = "swap_accept"
DECLINE = "swap_decline"

PRESENTERS_ABOUT = "The presenters' rotation: join, leave, away <date>, back"
PRESENTERS_WHAT = "join | leave | away <date> | back"
PRESENTERS_HELP = runs(
    Code("/paperclub presenters join"),
    ": take turns presenting (also ",
    Code("leave"),
    ", ",
    Code("away 2027-04-01"),
    ", ",
    Code("back"),
    "); ",
    Code("/paperclub present 2027-03-11"),
    " volunteers, ",
    Code("/paperclub swap 2027-03-11"),
    " asks to trade",
)
PRESENT_ABOUT = "Volunteer to present at a session (the next one, or that date's)"
PRESENT_WHAT = "a date (the next session when left out)"
SWAP_ABOUT = "Ask the presenter of that date's session to trade with yours"
SWAP_WHAT = "the other session's date"
USAGE = make(
    line(
        "Usage: ",
        Code("/paperclub presenters"),
        " (the rotation), ",
        Code("presenters join"),
        ", ",
        Code("presenters leave"),
        ", ",
        Code("presenters away 2027-04-01"),
        ", ",
        Code("presenters back"),
        ".",
    )
)
SWAP_USAGE = make(
    line("Usage: ", Code("/paperclub swap 2027-03-11"), " (the other session's date).")
)
NO_SESSION = make(line("There is no session that day ahead."))
NOT_PRESENTING = make(line("You present no session ahead, so there is nothing to trade."))
NOBODY_THERE = make(line("Nobody presents that session yet: volunteer with /paperclub present."))
SAME = make(line("You present that session already."))
STALE = make(line("That swap is decided, or not yours to decide."))


def listed(
    *,
    rotation: Sequence[RotationMember],
    ahead: Sequence[tuple[SessionRecord, str | None]],
    next_up: str | None,
) -> Message:
    """The rotation in order, who is away, and who presents the next sessions."""
    if not rotation and not any(user for _, user in ahead):
        return make(
            line(
                "Nobody is in the rotation yet. ",
                Code("/paperclub presenters join"),
                " to take turns.",
            )
        )
    members: list[tuple[Run, ...]] = []
    for member in rotation:
        away = f" (away until {member.away_until:%a %d %b})" if member.away_until else ""
        members.append(runs(PersonRef(member.user), away))
    sessions = tuple(
        (
            Strong(when(session=record.session)),
            *(runs(" · ", PersonRef(user)) if user else runs(" · not chosen yet")),
        )
        for record, user in ahead
    )
    blocks: list[Paragraph | Listing] = [
        line("The rotation:"),
        Listing(items=tuple(members) or (runs("nobody"),), ordered=False),
    ]
    if next_up:
        blocks.append(line("Next in turn: ", PersonRef(next_up), quiet=True))
    if sessions:
        blocks += [line("Presenting:"), Listing(items=sessions, ordered=False)]
    return Message(blocks=tuple(blocks))


def joined(*, new: bool) -> Message:
    """The answer to `presenters join`."""
    return make(line("You are in the rotation." if new else "You were in the rotation already."))


def left(*, was: bool) -> Message:
    """The answer to `presenters leave`."""
    return make(line("You left the rotation." if was else "You were not in the rotation."))


def away(*, until: date | None, member: bool) -> Message:
    """The answer to `presenters away DATE` and `presenters back`."""
    if not member:
        return make(line("Join the rotation first: ", Code("/paperclub presenters join"), "."))
    if until is None:
        return make(line("Welcome back: you are in turn again."))
    return make(line(f"You are away until {until:%a %d %b %Y}: no session before it is yours."))


def volunteered(*, record: SessionRecord) -> Message:
    """The answer to `present`."""
    return make(line("Thank you: you present on ", Strong(when(session=record.session)), "."))


def taken(*, record: SessionRecord, user: str) -> Message:
    """Someone volunteered for that session already."""
    return make(
        line(
            PersonRef(user), " volunteered for ", Strong(when(session=record.session)), " already."
        )
    )


def chosen(*, record: SessionRecord, how: How) -> Message:
    """The direct message to a session's new presenter."""
    why = {"rotation": "It is your turn", "volunteer": "You volunteered", "swap": "You swapped"}[
        how
    ]
    return make(
        line(
            f"🎤 {why}: you present at the reading group on ",
            Strong(when(session=record.session)),
            ".",
        ),
        line("The session's paper is chosen by its poll, or the channel's queue.", quiet=True),
    )


def tomorrow(*, record: SessionRecord) -> Message:
    """The direct message to a presenter as the session nears."""
    return make(line("🎤 A reminder: you present at ", Strong(when(session=record.session)), "."))


def swap_asked(*, swap: Swap, theirs: SessionRecord, other: SessionRecord) -> Message:
    """The channel's message asking for a swap, with its two buttons (for the one asked)."""
    value = str(swap.id)
    return Message(
        blocks=(
            line(
                "🔁 ",
                PersonRef(swap.asked_by),
                " asks ",
                PersonRef(swap.asked_of),
                " to swap: ",
                Strong(when(session=other.session)),
                " for ",
                Strong(when(session=theirs.session)),
                ".",
            ),
            Buttons(
                buttons=(
                    Button(label="Accept swap", action=ACCEPT, value=value),
                    Button(label="Decline", action=DECLINE, value=value),
                )
            ),
        )
    )


def swap_decided(*, swap: Swap, accepted: bool) -> Message:
    """The swap's message once decided (no buttons left)."""
    said = " accepted: the two sessions' presenters are swapped." if accepted else " declined."
    return make(line("🔁 ", PersonRef(swap.asked_of), said))


def swap_sent(*, asked_of: str) -> Message:
    """The answer to `swap DATE`."""
    return make(line("Asked ", PersonRef(asked_of), " in the channel; they accept with one click."))
