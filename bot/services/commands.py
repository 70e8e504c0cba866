"""The /paperclub command: one router for every platform."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot.domain import ChannelKey, Schedule
from bot.ports import Chat, PaperLookup, UnitOfWork
from bot.services import adding, admin, recap, related, search, taste, top, web_links
from bot.services.posting import Poster
from bot.services.reply import Reply
from bot.wording import archive, replies


@dataclass(frozen=True, slots=True)
class Invocation:
    """Who typed the command, in which channel, and what the bot has to answer with."""

    uow: UnitOfWork
    chat: Chat
    poster: Poster
    channel: ChannelKey
    user: str
    admins: tuple[str, ...]
    defaults: Schedule
    now: datetime
    lookup: PaperLookup
    # Sign-in links to the web archive (`/paperclub web`); None: sign-in is off.
    signer: web_links.Signer | None = None


def split(*, text: str) -> tuple[str, list[str]]:
    """The subcommand (lower-cased) and its arguments."""
    words = text.split()
    return (words[0].lower(), words[1:]) if words else ("help", [])


def handle(*, call: Invocation, text: str) -> Reply:
    """Answer one /paperclub command; unknown input is a search, never an error."""
    name, args = split(text=text)
    if name in admin.ADMIN_COMMANDS and not admin.is_admin(
        channel=call.channel, user=call.user, admins=call.admins, chat=call.chat
    ):
        return admin.refusal(command=name)
    here, now = call.channel, call.now
    if name == "schedule":
        return admin.schedule(
            uow=call.uow, chat=call.chat, channel=here, args=args, defaults=call.defaults, now=now
        )
    if name in ("pause", "resume"):
        return admin.set_paused(uow=call.uow, channel=here, paused=name == "pause", now=now)
    if name == "skip":
        return admin.skip(uow=call.uow, channel=here, now=now)
    if name == "recap":
        return recap.configure(poster=call.poster, channel=here, args=args)
    if name == "next":
        return admin.post_next(poster=call.poster, channel=here, now=now)
    if name == "queue":
        return queue_reply(call=call)
    if name == "related":
        return related.ask(uow=call.uow, text=" ".join(args), viewer=here)
    if name == "order":
        return taste.set_order(uow=call.uow, channel=here, args=args)
    if name == "add":
        return adding.add(
            uow=call.uow,
            lookup=call.lookup,
            text=" ".join(args),
            channel=here,
            user=call.user,
            now=now,
        )
    if name == "top":
        period = args[0].lower() if args else "month"
        return top.top(uow=call.uow, channel=here, period=period, now=now, tz=_timezone(call=call))
    if name == "web":
        return web_links.reply(channel=here, now=now, signer=call.signer)
    if name == "help":
        return Reply(message=archive.help_message())
    # Anything else is a search: `/paperclub tensor parallel` searches for those words.
    query = " ".join(args) if name == "search" else text.strip()
    if not query:
        return Reply(message=archive.ASK_WHAT)
    return search_reply(result=search.search(uow=call.uow, text=query, viewer=here))


def search_reply(*, result: search.SearchResult) -> Reply:
    """The reply carrying a page of results, with a plain summary for notifications."""
    return Reply(
        message=search.page_message(result=result),
        summary=archive.search_summary(text=result.text, page=result.page),
    )


def more_results(*, uow: UnitOfWork, value: object, viewer: ChannelKey | None) -> Reply | None:
    """The page a 'More results' button asks for, as the viewer's channel sees it; None for a
    button too old or malformed to read."""
    carried = archive.read_more_value(value=value)
    if carried is None:
        return None
    text, offset = carried
    return search_reply(result=search.search(uow=uow, text=text, offset=offset, viewer=viewer))


def _timezone(*, call: Invocation) -> str:
    """The channel's time zone, or the default one for a channel that does not follow the list."""
    with call.uow(write=False) as store:
        channel = store.channel(key=call.channel)
    return channel.schedule.timezone if channel else call.defaults.timezone


def queue_reply(*, call: Invocation, limit: int = 5) -> Reply:
    """The next papers in this channel's queue (the shared list for a channel not following)."""
    with call.uow(write=False) as store:
        channel = store.channel(key=call.channel)
        workspace = call.channel.workspace_key
        papers = store.queued(workspace=workspace, channel=channel, limit=limit)
        total = store.count_queued(workspace=workspace, channel=channel)
    if not papers:
        return Reply(message=replies.QUEUE_EMPTY)
    return Reply(message=replies.queue(titles=[p.title for p in papers], total=total))
