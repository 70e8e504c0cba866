"""What /paperclub says about its own subcommands: each one's line in the help, its short
description (Discord shows it beside the name, at most 100 characters, plain text) and the
descriptions of its options (Discord's fields; Slack and the console take one line of text).

The command table (bot/services/commands/table.py) names these; the help is assembled from the
table, in its order, anyone's commands first.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.messages import Code, Listing, Message, Run, Strong, line, runs
from bot.wording.archive import SYNTAX

# The group itself, as Discord lists it.
GROUP_ABOUT = "Paper Club: the daily paper, its votes and discussions"

SEARCH_HELP = runs(
    Code("/paperclub search <words>"),
    " (or just ",
    Code("/paperclub <words>"),
    "): papers and comments, best first",
)
SEARCH_ABOUT = "Search papers and what the group said"
SEARCH_QUERY = 'Words, "phrases", -excluded, author:Name, after:2026-01-31'

ADD_HELP = runs(
    Code("/paperclub add <arXiv id or URL | DOI | URL | title>"),
    ": put a paper in this channel's queue",
)
ADD_ABOUT = "Put a paper at the end of this channel's queue"
ADD_PAPER = "An arXiv id or URL, a DOI, a URL or a title"

QUEUE_HELP = runs(Code("/paperclub queue"), ": the next papers in this channel")
QUEUE_ABOUT = "The next papers in this channel"

RELATED_HELP = runs(
    Code("/paperclub related <arXiv id | DOI | title>"),
    ": the papers the group read that are closest to it",
)
RELATED_ABOUT = "Papers the group read closest to this one"
RELATED_PAPER = "An arXiv id, a DOI or a title"

TOP_HELP = runs(
    Code("/paperclub top [week|month|year|all]"), ": the most voted and most discussed papers"
)
TOP_ABOUT = "The most voted and discussed papers"
TOP_PERIOD = "Which period (default month)"

WEB_HELP = runs(Code("/paperclub web"), ": a link to the group's web archive, for you alone")
WEB_ABOUT = "A sign-in link to the group's web archive, for you alone"

HELP_HELP = runs(Code("/paperclub help"), ": this message")
HELP_ABOUT = "What Paper Club can do"

SCHEDULE_HELP = runs(
    Code("/paperclub schedule HH:MM [Area/City] [mon-fri|daily|mon,wed,fri]"),
    ": follow this channel",
)
SCHEDULE_ABOUT = "Admins: follow this channel, or change when"
SCHEDULE_WHEN = "HH:MM [Area/City] [mon-fri|daily|mon,wed,fri]"

# One help line tells both pause and resume.
PAUSE_RESUME_HELP = runs(
    Code("/paperclub pause"),
    " / ",
    Code("/paperclub resume"),
    ": stop or restart the daily post",
)
PAUSE_ABOUT = "Admins: stop the daily post here"
RESUME_ABOUT = "Admins: restart the daily post here"

SKIP_HELP = runs(Code("/paperclub skip"), ": drop the next paper from the queue (marked skipped)")
SKIP_ABOUT = "Admins: drop the next paper from the queue"

NEXT_HELP = runs(Code("/paperclub next"), ": post today's paper now, if today has none yet")
NEXT_ABOUT = "Admins: post today's paper now"

RECAP_HELP = runs(
    Code("/paperclub recap fri 16:00"),
    " / ",
    Code("/paperclub recap off"),
    ": a weekly recap of the week's papers",
)
RECAP_ABOUT = "Admins: a weekly recap, e.g. 'fri 16:00' or 'off'"
RECAP_WHEN = "A weekday and time, like fri 16:00, or off"

ORDER_HELP = runs(
    Code("/paperclub order queue|taste"),
    ": post in list order, or pick by what the group liked",
)
ORDER_ABOUT = "Admins: post in queue order, or by taste"
ORDER_HOW = "queue: list order; taste: what the group liked"


def help_message(
    *, anyone: Sequence[tuple[Run, ...]], admins: Sequence[tuple[Run, ...]]
) -> Message:
    """`/paperclub help`: what it is, everyone's commands, the admins' ones, the search syntax."""
    return Message(
        blocks=(
            line(
                Strong("Paper Club"),
                " posts one paper a day; vote with 👍/👎 and discuss in the thread.",
            ),
            Listing(ordered=False, items=tuple(anyone)),
            line("Admins:"),
            Listing(ordered=False, items=tuple(admins)),
            SYNTAX,
        )
    )
