"""The store's part for keyword search over papers and what members said about them."""

from __future__ import annotations

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
