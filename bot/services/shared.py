"""What every platform shares, built once by the wiring and handed to each platform plug-in."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.domain import ChannelKey, Schedule
from bot.ports import Chat, Clock, PaperLookup, SeenRequests, UnitOfWork
from bot.services.posting import Poster


@dataclass(frozen=True, slots=True)
class Shared:
    """The archive, the clock, paper look-ups, the settings the services need, and hooks into the
    one scheduler (`reschedule`) and the one redraw coalescer (`refresh_post`)."""

    uow: UnitOfWork
    clock: Clock
    lookup: PaperLookup
    owner: str
    owner_alive: Callable[[str], bool]
    defaults: Schedule
    admins: tuple[str, ...]
    up_reactions: frozenset[str]
    down_reactions: frozenset[str]
    reschedule: Callable[[], None]
    refresh_post: Callable[[int], None]
    # Complete the channel's next paper from arXiv and Crossref before it is posted at once.
    enrich_next: Callable[[ChannelKey], None] = lambda _channel: None
    # Where signed HTTP requests' signatures are kept: the database with several replicas
    # (PostgreSQL); None keeps them in the process (SQLite: one process serves).
    seen_requests: SeenRequests | None = None

    def poster(self, *, chat: Chat, platform: str) -> Poster:
        """The posting service's inputs for one platform of this process."""
        return Poster(
            uow=self.uow,
            chat=chat,
            platform=platform,
            owner=self.owner,
            owner_alive=self.owner_alive,
        )
