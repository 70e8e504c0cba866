"""What admins read about reconciliation: when a channel's recent posts were last read back
from the platform, what that found, and how far back it reads."""

from __future__ import annotations

from datetime import datetime

from bot.messages import Code, Message, Paragraph, Strong, line, message, runs
from bot.ports.reconcile import MAX_WINDOW_DAYS, ReconcileStatus

HELP = runs(
    Code("/paperclub reconcile"),
    " / ",
    Code("/paperclub reconcile 14"),
    ": read recent posts' votes and threads back from the platform now (or over 14 days)",
)
ABOUT = "Admins: read back votes and replies missed while the bot was down"
DAYS = f"How many days of posts to read back (1-{MAX_WINDOW_DAYS})"
USAGE = message(
    line(
        "Usage: ",
        Code("/paperclub reconcile"),
        " to read back now, or ",
        Code("/paperclub reconcile 14"),
        f" to read back the last 14 days from now on (1 to {MAX_WINDOW_DAYS}).",
    )
)

NOTHING_MISSED = message(
    line(
        "Nothing to read back here: this chat hears every vote and reply as it happens, and "
        "misses none while the bot is down."
    )
)


def stamp(*, at: datetime | None) -> str:
    """A moment as admins read it, in UTC (the archive's clock)."""
    return "never" if at is None else at.strftime("%Y-%m-%d %H:%M UTC")


def status_line(*, status: ReconcileStatus) -> Paragraph:
    """One channel's reconciliation in a line."""
    found = f"{status.changes} change(s)"
    if status.failures:
        found += f", {status.failures} post(s) could not be read"
    if status.running:
        state = f"reading back since {stamp(at=status.started_at)} ({found} so far)"
    elif status.finished_at is None:
        state = "not read back yet"
    else:
        state = f"last read back {stamp(at=status.finished_at)}: {found} found"
    return line(
        Strong("Missed votes and replies: "),
        f"{state}; reads back the last {status.window_days} day(s) of posts.",
    )


def asked(*, status: ReconcileStatus, window_changed: bool) -> Message:
    """The answer to /paperclub reconcile: a read-back is on its way, and the last one."""
    first = (
        f"From now on, reconciliation reads back the last {status.window_days} day(s) of posts. "
        if window_changed
        else ""
    )
    return message(
        line(
            first + "The recent posts' reactions and threads will be read back in the "
            "background; counts are redrawn where something was missed."
        ),
        status_line(status=status),
    )
