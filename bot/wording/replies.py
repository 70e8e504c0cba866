"""Replies to /paperclub commands: usage, admin answers, the queue, adding a paper."""

from __future__ import annotations

from bot.domain import Paper, PostView
from bot.messages import (
    ChannelRef,
    Code,
    Link,
    Listing,
    Message,
    Paragraph,
    Strong,
    When,
    line,
    message,
    runs,
)

ADD_FORM = "/paperclub add <arXiv id or URL | DOI | URL | title>"
SCHEDULE_FORM = "/paperclub schedule HH:MM [Area/City] [mon-fri|daily|mon,wed,fri]"
RECAP_FORM = "/paperclub recap fri 16:00"

ADD_USAGE = message(
    line("Usage: ", Code(ADD_FORM), ", e.g. ", Code("/paperclub add 2104.04473"), ".")
)
SCHEDULE_USAGE = line(
    "Usage: ",
    Code(SCHEDULE_FORM),
    ", for example ",
    Code("/paperclub schedule 09:30 Europe/Berlin mon,wed,fri"),
    ".",
)
NOT_FOLLOWED = message(
    line(
        "This channel does not follow the reading list yet. An admin can start it with ",
        Code("/paperclub schedule 09:00 Area/City"),
        ".",
    )
)
RECAP_USAGE = line(
    "Usage: ",
    Code(RECAP_FORM),
    " (weekly, in this channel's time zone) or ",
    Code("/paperclub recap off"),
    ".",
)
TOP_USAGE = message(
    line("Usage: ", Code("/paperclub top [week|month|year|all]"), " (default: month).")
)
RACE_ADDED = message("Someone added that paper a moment ago; it is in the queue.")
QUEUE_EMPTY = message(
    line("The queue is empty. Add a paper with ", Code("/paperclub add <arXiv id or URL>"), ".")
)
NOTHING_TO_SKIP = message("The queue is empty: there is nothing to skip.")
RECAP_OFF = message("The weekly recap is off in this channel.")
RECAP_ONE_DAY = "The recap is weekly: name one day."


def usage_after(*, problem: str, usage: Paragraph) -> Message:
    """'I couldn't read the time: <why>.' then the usage line."""
    return message(line(problem), usage)


def refusal(*, command: str) -> Message:
    """The polite no for someone who is not an admin."""
    return message(
        line(
            "Only Paper Club admins can use ",
            Code(f"/paperclub {command}"),
            ". Ask a workspace admin, or one of the people in PAPERCLUB_ADMINS.",
        )
    )


def unknown_zone(*, zone: str) -> Message:
    """An argument that looked like a time zone and was not one."""
    return message(
        line(
            Code(zone),
            " is not a time zone I know; use an IANA name like ",
            Code("Europe/Berlin"),
            " or ",
            Code("America/New_York"),
            ".",
        )
    )


def scheduled(*, new: bool, when: str, days: str, next_post: str, paused: bool) -> Message:
    """What `/paperclub schedule` changed, and when the next paper comes."""
    verb = "Paper Club now posts here" if new else "Schedule changed: Paper Club posts"
    parts = [line(f"{verb} at {when}, {days}. Next paper: {next_post}.")]
    if paused:
        parts.append(
            line("The channel is paused; ", Code("/paperclub resume"), " starts it again.")
        )
    return message(*parts)


def already_paused(*, paused: bool) -> Message:
    """Pause or resume asked for the state the channel is in."""
    state = "paused" if paused else "running"
    return message(f"Paper Club is already {state} in this channel; nothing changed.")


PAUSED = message(
    line(
        "Paused: no papers will be posted here until an admin runs ",
        Code("/paperclub resume"),
        ". Votes, threads and search keep working.",
    )
)


def resumed(*, next_post: str) -> Message:
    """The channel posts again."""
    return message(f"Resumed. Next paper: {next_post}.")


def skipped(*, title: str, next_title: str | None, next_post: str) -> Message:
    """A paper left the queue for good."""
    after = (
        line("Next up: “", Strong(next_title), f"”, {next_post}.")
        if next_title is not None
        else line("The queue is now empty.")
    )
    return message(line("Skipped “", Strong(title), "”; it will not be posted."), after)


POST_NEXT = {
    "posted": message("Posted today's paper."),
    "recovered": message("Today's paper was already in the channel; I recorded it."),
    "already": message("This channel already has today's paper; one a day is the rule."),
    "busy": message("Today's paper is being posted right now."),
    "empty": message(
        line(
            "The queue is empty, so there is nothing to post. Add papers on the server with ",
            Code("paperclub import FILE"),
            ".",
        )
    ),
}


def post_refused(*, platform: str, code: str, hint: str) -> Message:
    """The platform refused the post that `/paperclub next` asked for."""
    return message(line(f"{platform.capitalize()} refused the post (", Code(code), f"): {hint}"))


def nothing_posted(*, outcome: str) -> Message:
    """Any other outcome of `/paperclub next`."""
    return message(f"Nothing posted ({outcome}).")


def queue(*, titles: list[str], total: int) -> Message:
    """The next papers in this channel's queue."""
    items = tuple(runs(title) for title in titles)
    blocks: list[Paragraph | Listing] = [
        line(Strong("Next in the queue"), f" ({total} in all):"),
        Listing(items=items),
    ]
    if total > len(titles):
        blocks.append(line(f"… and {total - len(titles)} more."))
    return message(*blocks)


def recap_on(*, day: str, at: str, zone: str) -> Message:
    """The weekly recap is switched on."""
    return message(
        f"Weekly recap on: every {day} at {at} {zone}, ranking the week's papers by votes "
        "and discussion."
    )


def added(*, title: str, position: int, note: str) -> Message:
    """A paper joined this channel's queue."""
    return message(
        line("Added “", Strong(title), f"” to this channel's queue at position {position}.{note}")
    )


def already_have(*, paper: Paper, status: str, views: list[PostView], position: int) -> Message:
    """What the group did with a paper it already has (status: queued, skipped or posted)."""
    if status == "queued":
        return message(
            line("“", Strong(paper.title), f"” is already in the queue, at position {position}.")
        )
    if status == "skipped":
        return message(
            line("“", Strong(paper.title), "” was in the queue before and an admin skipped it.")
        )
    if not views:
        return message(line("“", Strong(paper.title), "” is already in the archive."))
    view = views[-1]
    counts = f"👍 {view.votes.up} · 👎 {view.votes.down} · 💬 {len(view.comments)}."
    said = line(
        "The group already read “",
        Strong(paper.title),
        "” on ",
        When(day=view.date),
        " in ",
        ChannelRef(view.channel.channel),
        f": {counts}",
    )
    if view.permalink:
        said = line(*said.runs, " ", Link(url=view.permalink, label="Read the thread."))
    return message(said)


def offline_note(*, reason: str) -> str:
    """Why an added paper has no title and abstract yet."""
    return f" {reason}, so it is added as typed, without its title and abstract."


def not_found_note(*, arxiv_id: str | None, doi: str | None) -> str:
    """The id was read but the service has no such paper."""
    what = f"arXiv has no paper {arxiv_id}" if arxiv_id else f"Crossref has no DOI {doi}"
    return f" ({what}; added as typed.)"


SERVER_ONLY = message("Paper Club works in a server's channels, not in direct messages.")
FAILED = message(
    "Something went wrong on Paper Club's side; the bot's log says what. Please try again."
)
# The archive could not be written (a disk full, a lock held too long, a server down): said
# in time instead of a silent failure; nothing was kept, so trying again is safe.
VOTE_NOT_SAVED = message(
    "Your vote was not saved: the archive is unavailable right now. Try again in a minute."
)
NOT_SAVED = message(
    "That was not saved: the archive is unavailable right now. Try again in a minute."
)
# The archive could not be read (a server down, a file gone): a page, a view or the next
# results could not be shown; nothing was changed.
NOT_AVAILABLE = message(
    "That is not available right now: the archive cannot be read. Try again in a minute."
)
# A vote button whose post belongs to another channel (a copied or forged button).
BUTTON_NOT_HERE = message("That button does not belong to this channel: no vote was stored.")
# A button whose id names nothing this bot reads (or one pressed outside a channel).
UNKNOWN_BUTTON = message("That button no longer works here.")
