"""The answers no single service owns: a page of search results (typed, or asked for by a 'More
results' button) and the head of a channel's queue."""

from __future__ import annotations

from typing import Protocol

from bot.domain import ChannelKey
from bot.ports import (
    ChannelsStore,
    PapersStore,
    SearchStore,
    SemanticStore,
    UnitOfWork,
    WorkspacesStore,
)
from bot.services import search
from bot.services.embedding import SemanticExtra
from bot.services.invocation import Invocation
from bot.services.reply import Reply
from bot.services.search_spelled import forgiving_search
from bot.services.telemetry import Telemetry
from bot.wording import archive, replies


class Needs(WorkspacesStore, PapersStore, ChannelsStore, SearchStore, SemanticStore, Protocol):
    """The roles of the archive this service uses: a unit of work handing out more is fine."""


def search_reply(*, result: search.SearchResult) -> Reply:
    """The reply carrying a page of results, with a plain summary for notifications."""
    return Reply(
        message=search.page_message(result=result),
        summary=archive.search_summary(text=result.text, page=result.page, typed=result.typed),
    )


def search_words(*, call: Invocation, query: str) -> Reply:
    """The first page for what was typed; a nudge with the syntax when nothing was."""
    if not query:
        return Reply(message=archive.ASK_WHAT)
    found = forgiving_search(
        uow=call.uow,
        text=query,
        viewer=call.channel,
        semantic_extra=call.semantic_extra,
        telemetry=call.telemetry,
    )
    return search_reply(result=found)


def more_results(
    *,
    uow: UnitOfWork[Needs],
    value: object,
    viewer: ChannelKey | None,
    semantic_extra: SemanticExtra,
    telemetry: Telemetry,
) -> Reply | None:
    """The page a 'More results' or 'Did you mean' button asks for, as the viewer's channel
    sees it; None for a button too old or malformed to read."""
    carried = archive.read_more_value(value=value)
    if carried is None:
        return None
    text, offset = carried
    found = forgiving_search(
        uow=uow,
        text=text,
        offset=offset,
        viewer=viewer,
        semantic_extra=semantic_extra,
        telemetry=telemetry,
    )
    return search_reply(result=found)


def timezone(*, call: Invocation) -> str:
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
