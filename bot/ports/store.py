"""The Store port: every role of persistence inside one unit of work, and the unit of work.

Each role is its own port (bot/ports/workspaces, papers, posts, activity, search, enrichment,
archive_pages, semantic); a service may ask for just the roles it uses. `Store` offers them all.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Protocol

from bot.ports.activity import ActivityStore, HomeStore
from bot.ports.archive_pages import ArchivePagesStore
from bot.ports.enrichment import EnrichmentStore
from bot.ports.papers import ListsStore, PapersStore
from bot.ports.posts import ChannelsStore, PostsStore, RecapsStore
from bot.ports.search import SearchStore
from bot.ports.semantic import SemanticStore
from bot.ports.workspaces import WorkspacesStore


class Store(
    WorkspacesStore,
    PapersStore,
    ListsStore,
    ChannelsStore,
    PostsStore,
    RecapsStore,
    ActivityStore,
    HomeStore,
    SearchStore,
    EnrichmentStore,
    ArchivePagesStore,
    SemanticStore,
    Protocol,
):
    """Persistence inside one unit of work (one transaction): every role port at once."""


class UnitOfWork(Protocol):
    """Opens a transaction and hands out the Store bound to it; commits on success."""

    def __call__(self, *, write: bool = True) -> AbstractContextManager[Store]:
        """Begin a unit of work; read-only ones don't take the write lock."""
        ...
