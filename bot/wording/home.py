"""The App Home's words: what a person sees of their channels, their votes and their comments,
the admin buttons, and the schedule form."""

from __future__ import annotations

from bot.domain import ChannelKey
from bot.domain.home import OwnComment, OwnVote
from bot.messages import (
    Block,
    ChannelRef,
    Code,
    Listing,
    Message,
    Paragraph,
    Plain,
    Run,
    Strong,
    When,
    line,
    message,
    runs,
)

TITLE = "Paper Club"
INTRO = line(
    "Every day a paper, in the channels that follow the reading list. Vote with 👍 or 👎 "
    "under the post and talk about it in its thread.",
    quiet=True,
)
# The archive could not be read when the tab was opened or a button pressed: nothing changed.
UNAVAILABLE = message(
    "The archive is unavailable right now, so your Home cannot be shown. Nothing was "
    "changed; open this tab again in a minute."
)
NO_CHANNELS = message(
    line(Strong("Your channels")),
    line(
        "None of the channels you are in follows the reading list yet. An admin can start one "
        "with ",
        Code("/paperclub schedule 09:00 Area/City"),
        ", typed in that channel.",
    ),
)
CHANNELS_UNKNOWN = message(
    line(Strong("Your channels")),
    line("I could not find out which channels you are in just now; open this tab again soon."),
)
CHANNELS_HEADING = line(Strong("Your channels"))
VOTES_HEADING = line(Strong("Your recent votes"))
COMMENTS_HEADING = line(Strong("Your recent comments"))
SUGGESTIONS_HEADING = line(Strong("Suggestions"))
NO_VOTES = line(
    "No votes yet: the 👍 and 👎 under each day's paper are yours to press.", quiet=True
)
NO_COMMENTS = line("No comments yet: reply in a post's thread to join the talk.", quiet=True)
QUEUE_EMPTY = "The queue is empty."
COMMENT_SHOWN = 280  # characters of a comment shown; the rest is in the thread

PAUSE = "Pause"
RESUME = "Resume"
SKIP = "Skip the next paper"
POST_NOW = "Post now"
SET_SCHEDULE = "Set the schedule…"

FORM_TITLE = "Schedule"
FORM_SUBMIT = "Save"
FORM_CLOSE = "Cancel"
FORM_TIME = "Post time"
FORM_ZONE = "Time zone"
FORM_DAYS = "Days"
DAY_LABELS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
NEED_TIME = "Pick the time of day the paper is posted."
BAD_TIME = "Pick a time as hours and minutes, like 09:30."
NEED_ZONE = "Pick a time zone."
BAD_ZONE = "Pick a time zone from the list."
NEED_DAYS = "Tick at least one day."
NOT_ADMIN = "Only Paper Club admins can change the schedule."
NOT_FOLLOWED = "This channel no longer follows the reading list; open the Home tab again."


def form_intro(*, channel: ChannelKey) -> Paragraph:
    """The schedule form's opening line."""
    return line("When Paper Club posts in ", ChannelRef(channel.channel), ", in its local time.")


def channel_line(
    *, channel: ChannelKey, when: str, days: str, zone: str, paused: bool, next_post: str | None
) -> Paragraph:
    """'#general · 09:00 Europe/Berlin, weekdays (Mon–Fri) · next paper tomorrow at 09:00'."""
    state: Run = Strong("paused") if paused else Plain(f"next paper {next_post}")
    return line(ChannelRef(channel.channel), f" · {when} {zone}, {days} · ", state)


def next_papers(*, titles: tuple[str, ...], total: int) -> tuple[Block, ...]:
    """The next titles in a channel's queue, or a word that it is empty."""
    if not titles:
        return (line(QUEUE_EMPTY, quiet=True),)
    listed = Listing(items=tuple(runs(title) for title in titles))
    more = total - len(titles)
    return (listed, line(f"… and {more} more in the queue.", quiet=True)) if more > 0 else (listed,)


def tray_heading(*, channel: ChannelKey) -> Paragraph:
    """Above a channel's tray on the Home: where its buttons decide."""
    return line("Today in ", ChannelRef(channel.channel), ":", quiet=True)


def more_channels(*, count: int) -> Paragraph:
    """Channels left out for room."""
    more = f"… and {count} more channels; "
    return line(more, Code("/paperclub queue"), " in each shows its queue.", quiet=True)


def vote_item(*, vote: OwnVote) -> tuple[Run, ...]:
    """'👍 Title · #general, Mon 5 Jan'."""
    mark = "👍" if vote.value > 0 else "👎"
    return runs(
        f"{mark} ",
        vote.title,
        " · ",
        ChannelRef(vote.channel.channel),
        ", ",
        When(day=vote.local_date, year=False),
    )


def comment_item(*, comment: OwnComment) -> tuple[Run, ...]:
    """'“What you said” on Title · #general, Mon 5 Jan'."""
    text = " ".join(comment.text.split())
    if len(text) > COMMENT_SHOWN:
        text = text[: COMMENT_SHOWN - 1].rstrip() + "…"
    edited = " (edited)" if comment.edited else ""
    return runs(
        "“",
        text,
        f"”{edited} on ",
        comment.title,
        " · ",
        ChannelRef(comment.channel.channel),
        ", ",
        When(day=comment.local_date, year=False),
    )


def listing(*, items: tuple[tuple[Run, ...], ...]) -> Listing:
    """An unnumbered list."""
    return Listing(items=items, ordered=False)


def notice(*, channel: ChannelKey, said: Message) -> Message:
    """What a Home button did, in which channel."""
    return message(line("In ", ChannelRef(channel.channel), ":", quiet=True), *said.blocks)
