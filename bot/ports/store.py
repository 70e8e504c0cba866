"""The Store port: every role of persistence inside one unit of work, and the unit of work.

Each role is its own port (bot/ports/workspaces, papers, posts, activity, search, enrichment,
archive_pages, semantic, reconcile, sources, meetings, polls, presenters, session_memory,
session_history, zotero); a service may ask for just the roles it uses. `Store` offers them all.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Protocol, TypeVar

from bot.ports.activity import ActivityStore, HomeStore
from bot.ports.archive_pages import ArchivePagesStore
from bot.ports.enrichment import EnrichmentStore
from bot.ports.meetings import MeetingsStore
from bot.ports.names import NamesStore
from bot.ports.papers import ListsStore, PapersStore
from bot.ports.polls import PollsStore
from bot.ports.posts import ChannelsStore, PostsStore, RecapsStore
from bot.ports.presenters import PresentersStore
from bot.ports.reconcile import ReconcileStore
from bot.ports.search import SearchStore
from bot.ports.semantic import SemanticStore
from bot.ports.session_history import SessionHistoryStore
from bot.ports.session_memory import SessionMemoryStore
from bot.ports.sources import SourcesStore
from bot.ports.workspaces import WorkspacesStore
from bot.ports.zotero import ZoteroStore


class ArchiveUnavailable(Exception):
    """The archive cannot take this unit of work now: it cannot be read or written (a disk
    full, a read-only file, a write lock held too long, a server that does not answer). Nothing
    of the unit was kept; the person is told "not saved, try again", an event is left for the
    platform to deliver again. The database's own error is in the log and the cause chain,
    never in an answer."""


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
    NamesStore,
    SemanticStore,
    ReconcileStore,
    SourcesStore,
    MeetingsStore,
    PollsStore,
    PresentersStore,
    SessionMemoryStore,
    SessionHistoryStore,
    ZoteroStore,
    Protocol,
):
    """Persistence inside one unit of work (one transaction): every role port at once."""


# What a unit of work hands out: Store, or the roles a service asks for (a protocol combining
# role ports). Covariant, so the database, whose units offer every role, serves any service.
Roles = TypeVar("Roles", covariant=True)


class UnitOfWork(Protocol[Roles]):
    """Opens a transaction and hands out the store bound to it; commits on success. A service
    types it with the roles it uses: UnitOfWork[Needs]."""

    def __call__(self, *, write: bool = True) -> AbstractContextManager[Roles]:
        """Begin a unit of work; read-only ones don't take the write lock."""
        ...
