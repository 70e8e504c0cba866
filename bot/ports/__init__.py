"""Interfaces the core needs from its edges: a store, a chat platform, metadata, a clock."""

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
)
from bot.ports.semantic import SearchRun, Semantic, SemanticStore
from bot.ports.store import Store, UnitOfWork

__all__ = [
    "Chat",
    "ChatError",
    "Clock",
    "LookupFailed",
    "PaperLookup",
    "Platform",
    "PlatformStartError",
    "SearchRun",
    "SeenRequests",
    "Semantic",
    "SemanticStore",
    "ServesHttp",
    "Store",
    "UnitOfWork",
    "WsgiApp",
]
