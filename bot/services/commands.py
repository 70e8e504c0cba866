"""The /paperclub command: one router for every platform (Slack, console)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot.domain import Schedule
from bot.ports import Chat, PaperLookup, UnitOfWork
from bot.services import adding, admin, recap, search, top
from bot.services.admin import Reply
from bot.services.posting import Poster

HELP = """*Paper Club* posts one paper a day; vote with 👍/👎 and discuss in the thread.
• `/paperclub search <words>` (or just `/paperclub <words>`): papers and comments, best first
• `/paperclub add <arXiv id or URL | DOI | URL | title>`: put a paper in this channel's queue
• `/paperclub queue`: the next papers in this channel
• `/paperclub top [week|month|year|all]`: the most voted and most discussed papers
• `/paperclub help`: this message
Admins:
• `/paperclub schedule HH:MM [Area/City] [mon-fri|daily|mon,wed,fri]`: follow this channel
• `/paperclub pause` / `/paperclub resume`: stop or restart the daily post
• `/paperclub skip`: drop the next paper from the queue (it is marked skipped)
• `/paperclub next`: post today's paper now, if today has none yet
• `/paperclub recap fri 16:00` / `/paperclub recap off`: a weekly recap of the week's papers"""


@dataclass(frozen=True, slots=True)
class Invocation:
    """Who typed the command, where, and what the bot has to answer with."""

    uow: UnitOfWork
    chat: Chat
    poster: Poster
    platform: str
    team_id: str
    channel_id: str
    user: str
    admins: tuple[str, ...]
    defaults: Schedule
    now: datetime
    lookup: PaperLookup


def split(*, text: str) -> tuple[str, list[str]]:
    """The subcommand (lower-cased) and its arguments."""
    words = text.split()
    return (words[0].lower(), words[1:]) if words else ("help", [])


def handle(*, call: Invocation, text: str) -> Reply:
    """Answer one /paperclub command; unknown input gets help, never an error."""
    name, args = split(text=text)
    if name in admin.ADMIN_COMMANDS and not admin.is_admin(
        user=call.user, admins=call.admins, chat=call.chat
    ):
        return admin.refusal(command=name)
    if name == "schedule":
        return admin.schedule(
            uow=call.uow, platform=call.platform, team_id=call.team_id,
            channel_id=call.channel_id, args=args, defaults=call.defaults, now=call.now,
        )  # fmt: skip
    if name in ("pause", "resume"):
        return admin.set_paused(
            uow=call.uow, platform=call.platform, channel_id=call.channel_id,
            paused=name == "pause", now=call.now,
        )  # fmt: skip
    if name == "skip":
        return admin.skip(
            uow=call.uow, platform=call.platform, channel_id=call.channel_id, now=call.now
        )
    if name == "recap":
        return recap.configure(poster=call.poster, channel_id=call.channel_id, args=args)
    if name == "next":
        return admin.post_next(poster=call.poster, channel_id=call.channel_id, now=call.now)
    if name == "queue":
        return queue_reply(call=call)
    if name == "add":
        return adding.add(
            uow=call.uow, lookup=call.lookup, text=" ".join(args), channel_id=call.channel_id,
            user=call.user, now=call.now,
        )  # fmt: skip
    if name == "top":
        return top.top(
            uow=call.uow, channel_id=call.channel_id, period=args[0].lower() if args else "month",
            now=call.now, tz=_timezone(call=call),
        )  # fmt: skip
    if name == "help":
        return Reply(text=f"{HELP}\n{search.SYNTAX}")
    # Anything else is a search: `/paperclub tensor parallel` searches for those words.
    query = " ".join(args) if name == "search" else text.strip()
    if not query:
        return Reply(text=f"What should I search for? {search.SYNTAX}")
    return search_reply(result=search.search(uow=call.uow, text=query))


def search_reply(*, result: search.SearchResult) -> Reply:
    """The reply carrying a page of results, with a plain summary for notifications."""
    page = result.page
    if not page.hits:
        summary = f"No papers or comments match “{result.text[:200]}”. {search.NO_HITS_TIPS}"
    else:
        first, last = page.offset + 1, page.offset + len(page.hits)
        summary = f"Results {first}–{last} of {page.total} for “{result.text[:200]}”"
    return Reply(text=summary, search=result)


def _timezone(*, call: Invocation) -> str:
    """The channel's time zone, or the default one for a channel that does not follow the list."""
    with call.uow(write=False) as store:
        channel = store.channel(platform=call.platform, channel_id=call.channel_id)
    return channel.schedule.timezone if channel else call.defaults.timezone


def queue_reply(*, call: Invocation, limit: int = 5) -> Reply:
    """The next papers in this channel's queue."""
    with call.uow(write=False) as store:
        papers = store.queued(channel=call.channel_id, limit=limit)
        total = store.count_queued(channel=call.channel_id)
    if not papers:
        return Reply(
            text="The queue is empty. Add a paper with `/paperclub add <arXiv id or URL>`."
        )
    lines = [f"{n}. {paper.title}" for n, paper in enumerate(papers, start=1)]
    more = f"\n… and {total - len(papers)} more." if total > len(papers) else ""
    return Reply(text=f"*Next in the queue* ({total} in all):\n" + "\n".join(lines) + more)
