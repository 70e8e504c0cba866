"""`/paperclub search` (and bare text): the archive's papers and what the group said."""

from __future__ import annotations

import time
from dataclasses import dataclass

from bot.domain import ChannelKey, SearchPage
from bot.messages import Message
from bot.ports import UnitOfWork
from bot.search_query import parse_query
from bot.services import telemetry
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
) -> SearchResult:
    """Parse what the user typed and fetch one page as the viewer's channel may see it (None:
    the operator, who sees everything); nothing they type reaches SQL as text."""
    started = time.perf_counter()
    query = parse_query(text=text)
    with uow(write=False) as store:
        page = store.search(query=query, limit=limit, offset=max(0, offset), viewer=viewer)
    telemetry.current().search(
        platform=viewer.platform if viewer else OPERATOR, seconds=time.perf_counter() - started
    )
    return SearchResult(text=text, page=page, notes=query.notes)


def page_message(*, result: SearchResult) -> Message:
    """The page as a message, with a 'More results' button when there are more."""
    return archive.search_page(
        text=result.text, page=result.page, notes=result.notes, next_offset=result.next_offset
    )
