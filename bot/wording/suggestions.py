"""What people read about suggestions: the day's tray with its buttons, and the answers to
promoting, hiding and the tray's settings."""

from __future__ import annotations

from collections.abc import Sequence

from bot.messages import (
    Block,
    Button,
    Buttons,
    Code,
    Link,
    Message,
    PersonRef,
    Plain,
    Run,
    Strong,
    line,
    message,
    runs,
)
from bot.ports.sources import Suggestion, TraySettings
from bot.wording.suggestion_reason import reason_runs

# The buttons' actions; their value is the suggestion's number.
ADD = "suggestion_add"
HIDE = "suggestion_hide"
ADD_LABEL = "Add to queue"
HIDE_LABEL = "Not for us"
MAX_AUTHORS_SHOWN = 3

HELP = runs(
    Code("/paperclub suggestions"),
    ": today's suggestions from the watches; ",
    Code("suggestions add 12"),
    " queues one, ",
    Code("suggestions hide 12"),
    " hides it (admins: ",
    Code("suggestions size 3"),
    ", ",
    Code("suggestions autofill on"),
    ")",
)
ABOUT = "Today's suggestions from this channel's watches"
WHAT = "add <number> | hide <number> | size <0-5> | autofill on|off"

USAGE = message(
    line(
        "Usage: ",
        Code("/paperclub suggestions"),
        " shows today's tray; ",
        Code("/paperclub suggestions add 12"),
        " adds suggestion #12 to the queue; ",
        Code("/paperclub suggestions hide 12"),
        " hides it here. Admins: ",
        Code("/paperclub suggestions size 3"),
        " (0 to 5 a day; 0: no tray) and ",
        Code("/paperclub suggestions autofill on"),
        " (the top suggestion fills the queue when it runs empty).",
    )
)
ADMINS_ONLY = message(line("Only admins change how suggestions arrive."))
NO_QUEUE_TO_FILL = message(
    line(
        "This channel has no daily post, so no queue of its own to fill: what it adds joins the "
        "shared queue. ",
        Code("/paperclub schedule"),
        " follows it; then autofill can keep its daily post from running empty.",
    )
)
NONE_YET = message(
    line(
        "No suggestions here yet. Admins add sources with ",
        Code("/paperclub watch add arxiv cs.LG"),
        "; what they announce arrives here once a day.",
    )
)


def _authors(*, names: Sequence[str]) -> str:
    """'A, B, C et al.'"""
    shown = ", ".join(names[:MAX_AUTHORS_SHOWN])
    return shown + (" et al." if len(names) > MAX_AUTHORS_SHOWN else "")


def _title(*, suggestion: Suggestion) -> Run:
    """The title, linked where the candidate has an address."""
    candidate = suggestion.candidate
    if candidate.url:
        return Link(url=candidate.url, label=candidate.title)
    return Strong(candidate.title)


def _state(*, suggestion: Suggestion) -> tuple[Run, ...]:
    """What became of a decided suggestion, and who decided."""
    who = suggestion.decided_by
    if suggestion.state == "promoted":
        return runs("✅ Added to the queue", *((" by ", PersonRef(who)) if who else ()), ".")
    return runs("🙈 Not for us", *((" (", PersonRef(who), ")") if who else ()), ".")


def item_blocks(*, suggestion: Suggestion) -> tuple[Block, ...]:
    """One suggestion: its number and title, authors, the reason, and its buttons or fate."""
    candidate = suggestion.candidate
    head: list[Run] = [Strong(f"#{suggestion.id} "), _title(suggestion=suggestion)]
    if candidate.authors:
        head.append(Plain(" — " + _authors(names=candidate.authors)))
    blocks: list[Block] = [line(*head)]
    if suggestion.reason is not None:
        blocks.append(line(*reason_runs(reason=suggestion.reason), quiet=True))
    if suggestion.state in ("promoted", "hidden"):
        blocks.append(line(*_state(suggestion=suggestion), quiet=True))
    else:
        value = str(suggestion.id)
        blocks.append(
            Buttons(
                buttons=(
                    Button(label=ADD_LABEL, action=ADD, value=value),
                    Button(label=HIDE_LABEL, action=HIDE, value=value),
                )
            )
        )
    return tuple(blocks)


def tray(*, suggestions: Sequence[Suggestion], waiting: int) -> Message:
    """The day's tray: a heading, then each suggestion in ranked order."""
    more = f" ({waiting} more waiting)" if waiting else ""
    blocks: list[Block] = [
        line(
            Strong("📬 New papers from your watches"),
            f": the best {len(suggestions)} for this group{more}. ",
            "Anyone can add one to the queue; ",
            Strong("Not for us"),
            " hides it here.",
        )
    ]
    for suggestion in suggestions:
        blocks.extend(item_blocks(suggestion=suggestion))
    return Message(blocks=tuple(blocks))


def promoted(*, title: str, position: int) -> Message:
    """A suggestion added to the queue."""
    return message(line("Added ", Strong(title), f" to the queue (position {position})."))


def already_in(*, title: str) -> Message:
    """A suggestion whose paper the archive has already."""
    return message(line(Strong(title), " is already in the archive; nothing was added."))


def hidden(*, title: str) -> Message:
    """A suggestion hidden."""
    return message(line("Hidden ", Strong(title), ": it will not be suggested here again."))


def decided(*, suggestion: Suggestion) -> Message:
    """A second click on a suggestion already decided."""
    return message(line(Strong(suggestion.candidate.title), " — ", *_state(suggestion=suggestion)))


def no_such(*, number: str) -> Message:
    """A number this channel has no suggestion for."""
    return message(
        line(f"There is no suggestion #{number[:20]} here; ", Code("/paperclub suggestions"), ".")
    )


def settings(*, settings: TraySettings) -> Message:
    """The tray's settings after a change."""
    size = "no tray" if settings.per_day == 0 else f"up to {settings.per_day} suggestion(s) a day"
    fill = (
        "the top suggestion fills the queue when it runs empty"
        if settings.autofill
        else "the queue is filled by hand"
    )
    return message(line("Suggestions here: ", Strong(size), "; ", fill, "."))


def autofilled(*, title: str) -> Message:
    """The queue ran low and the top suggestion filled it."""
    return message(
        line(
            "The queue ran empty, so the top suggestion joined it: ",
            Strong(title),
            ". ",
            Code("/paperclub suggestions autofill off"),
            " stops this.",
            quiet=True,
        )
    )


def no_tray_yet(*, waiting: int) -> Message:
    """/paperclub suggestions on a day whose tray is not out (or had nothing new)."""
    if not waiting:
        return message(
            line("Nothing new from the watches today; the tray comes when they announce some.")
        )
    return message(
        line(
            f"{waiting} new suggestion(s) wait for today's tray, which comes at the channel's "
            "post time."
        )
    )
