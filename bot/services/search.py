"""`/paperclub search` (and bare text): the archive's papers and what the group said."""

from __future__ import annotations

import time
from dataclasses import dataclass

from bot.domain import ChannelKey, SearchPage, WorkspaceKey
from bot.messages import Message
from bot.ports import UnitOfWork
from bot.search_query import parse_query
from bot.services import telemetry, tenancy
from bot.wording import archive

PAGE_SIZE = 5
OPERATOR = "operator"  # the metrics' platform for a search without a viewer (the CLI's)


@dataclass(frozen=True, slots=True)
class SearchResult:
    """A page of hits for what the user typed, and what the parser ignored."""

    text: str
    page: SearchPage
    notes: tuple[str, ...]

    @property
    def next_offset(self) -> int | None:
        """Where the next page starts, or None on the last page."""
        shown = self.page.offset + len(self.page.hits)
        return shown if shown < self.page.total else None


def search(
    *,
    uow: UnitOfWork,
    text: str,
    viewer: ChannelKey | None,
    offset: int = 0,
    limit: int = PAGE_SIZE,
    workspace: WorkspaceKey | None = None,
) -> SearchResult:
    """Parse what the user typed and fetch one page of the viewer's workspace as its channel
    may see it (no viewer: the operator, who sees all of `workspace`, by default the only
    one); nothing they type reaches SQL as text."""
    started = time.perf_counter()
    query = parse_query(text=text)
    if viewer is not None:
        scope = viewer.tenant  # a channel searches its own workspace, whatever was asked
    else:
        scope = workspace or tenancy.resolve(uow=uow, named=None)
    with uow(write=False) as store:
        page = store.search(query=query, limit=limit, offset=max(0, offset), viewer=viewer,
                            workspace=scope)  # fmt: skip
    telemetry.current().search(
        platform=viewer.platform if viewer else OPERATOR, seconds=time.perf_counter() - started
    )
    return SearchResult(text=text, page=page, notes=query.notes)


def page_message(*, result: SearchResult) -> Message:
    """The page as a message, with a 'More results' button when there are more."""
    return archive.search_page(
        text=result.text, page=result.page, notes=result.notes, next_offset=result.next_offset
    )
