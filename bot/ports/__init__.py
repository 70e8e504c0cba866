"""Interfaces the core needs from its edges: a store, a chat platform, metadata, a clock."""

from bot.ports.activity import ActivityStore, HomeStore
from bot.ports.archive_pages import ArchivePagesStore
from bot.ports.enrichment import EnrichmentStore
from bot.ports.meetings import MeetingsStore
from bot.ports.names import NamesStore
from bot.ports.papers import ListsStore, PapersStore
from bot.ports.platform import (
    Chat,
    ChatError,
    Clock,
    LookupFailed,
    PaperLookup,
    Platform,
    PlatformStartError,
    SeenRequests,
    ServesHttp,
    WsgiApp,
    wait_for_stop,
)
from bot.ports.polls import PollsStore
from bot.ports.posts import ChannelsStore, PostsStore, RecapsStore
from bot.ports.presenters import PresentersStore
from bot.ports.search import SearchStore
from bot.ports.semantic import SearchRun, Semantic, SemanticStore
from bot.ports.session_history import SessionHistoryStore
from bot.ports.session_memory import SessionMemoryStore
from bot.ports.sources import SourcesStore
from bot.ports.store import ArchiveUnavailable, Store, UnitOfWork
from bot.ports.workspaces import WorkspacesStore
from bot.ports.zotero import ZoteroStore

__all__ = [
    "ActivityStore",
    "ArchivePagesStore",
    "ArchiveUnavailable",
    "ChannelsStore",
    "Chat",
    "ChatError",
    "Clock",
    "EnrichmentStore",
    "HomeStore",
    "ListsStore",
    "LookupFailed",
    "MeetingsStore",
    "NamesStore",
    "PaperLookup",
    "PapersStore",
    "Platform",
    "PlatformStartError",
    "PollsStore",
    "PostsStore",
    "PresentersStore",
    "RecapsStore",
    "SearchRun",
    "SearchStore",
    "SeenRequests",
    "Semantic",
    "SemanticStore",
    "ServesHttp",
    "SessionHistoryStore",
    "SessionMemoryStore",
    "SourcesStore",
    "Store",
    "UnitOfWork",
    "WorkspacesStore",
    "WsgiApp",
    "ZoteroStore",
    "wait_for_stop",
]
