"""`/paperclub search` (and bare text): the archive's papers and what the group said."""

from __future__ import annotations

from dataclasses import dataclass

from bot.domain import SearchPage
from bot.ports import UnitOfWork
from bot.search_query import parse_query

PAGE_SIZE = 5
NO_HITS_TIPS = (
    "Try fewer or other words, drop quotes and filters, or search by `author:Name`. "
    "`/paperclub help` lists the search syntax."
)
SYNTAX = (
    'Search syntax: words, "quoted phrases", -excluded, `author:Name`, '
    "`after:2026-01-31` / `before:…` (post date), `in:#channel`, `is:queued` / `is:posted`."
)


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


def search(*, uow: UnitOfWork, text: str, offset: int = 0, limit: int = PAGE_SIZE) -> SearchResult:
    """Parse what the user typed and fetch one page; nothing they type reaches SQL as text."""
    query = parse_query(text=text)
    with uow(write=False) as store:
        page = store.search(query=query, limit=limit, offset=max(0, offset))
    return SearchResult(text=text, page=page, notes=query.notes)
