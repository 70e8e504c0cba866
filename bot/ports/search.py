"""The store's part for keyword search over papers and what members said about them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from bot.domain import (
    ChannelKey,
    SearchPage,
    WorkspaceKey,
)
from bot.search_query import SearchQuery


class SearchStore(Protocol):
    """Keyword search in one page, inside one unit of work."""

    def search(
        self,
        *,
        query: SearchQuery,
        limit: int,
        offset: int,
        viewer: ChannelKey | None,
        workspace: WorkspaceKey,
    ) -> SearchPage:
        """One page of a workspace's papers matching the query (by their text or comments),
        best first; with a viewer, posts and comments of channels it may not see are left out."""
        ...

    def words_near(
        self, *, words: Sequence[str], workspace: WorkspaceKey
    ) -> tuple[tuple[str, int], ...]:
        """(word, papers holding it) for the archive's words, as written, sharing a first
        letter with one of `words` (lower-cased, accents folded) and within two letters of its
        length: the candidates for "did you mean" (services/spelling.py measures them)."""
        ...
