"""The club: the one facade every platform edge calls with plain values (a command, a click, a
reaction, a thread reply, an edit, a delete, the Home and its form) and whose answers it
renders. Built once by the wiring; each edge keeps the Room `club.on(chat=, platform=)` gives it
(Slack distribution keeps one per workspace, each on its own Chat).

The club owns what every edge used to repeat: the command context, rebuilding the scheduler
after a command changed a schedule, queueing the coalesced redraw after a vote changed, and the
dedupe ids of events (bot.services.event_ids).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from bot.domain import ChannelKey, Schedule
from bot.ports import Chat, Clock, PaperLookup, SeenRequests, Store, UnitOfWork
from bot.ports.zotero_desk import ZoteroDesk
from bot.services import admin
from bot.services.embedding import SemanticExtra
from bot.services.posting import Poster
from bot.services.room import Room
from bot.services.telemetry import Telemetry
from bot.services.web_links import Signer


@dataclass(frozen=True, slots=True)
class Club:
    """The archive, the clock, paper look-ups, the settings the services need, and the hooks
    into the one scheduler (`reschedule`) and the one redraw coalescer (`queue_redraw`)."""

    uow: UnitOfWork[Store]
    clock: Clock
    lookup: PaperLookup
    owner: str
    owner_alive: Callable[[str], bool]
    defaults: Schedule
    admins: tuple[str, ...]
    up_reactions: frozenset[str]
    down_reactions: frozenset[str]
    reschedule: Callable[[], None]
    # Only queues: a burst of votes makes a handful of redraws (Slack allows ~50 a minute).
    queue_redraw: Callable[[int], None]
    # The semantic index (or why there is none) and the embedder told of each paper added.
    semantic_extra: SemanticExtra
    # Complete the channel's next paper from arXiv and Crossref before it is posted at once.
    enrich_next: Callable[[ChannelKey], None] = lambda _channel: None
    # Where signed HTTP requests' signatures are kept: the database with several replicas
    # (PostgreSQL); None keeps them in the process (SQLite: one process serves).
    seen_requests: SeenRequests | None = None
    # Whoever keeps the numbers (the wiring's Prometheus metrics); the base drops every report.
    telemetry: Telemetry = field(default_factory=Telemetry)
    # Sign-in links to the web archive (`/paperclub web`); None: no key, no sign-in.
    signer: Signer | None = None
    # The archive as what people do sees it: a click's, a command's or a form's write gives up
    # in time for Slack's and Discord's 3 s (bot.db.database.Requests); None: `uow` itself.
    requests: UnitOfWork[Store] | None = None
    # Asks for a platform's recent posts to be read back after events may have been lost
    # (the runtime's reconciler); the base asks nothing.
    wants_reconcile: Callable[[str], None] = lambda _platform: None
    # Wakes it for an ask already in the archive (an admin's, for one channel).
    wake_reconcile: Callable[[], None] = lambda: None
    # Checks and seals Zotero keys (`/paperclub watch zotero`); None: no PAPERCLUB_SECRET_KEY.
    zotero: ZoteroDesk | None = None
    # Wakes the Zotero sync for a link just connected, tested or resumed.
    wake_zotero: Callable[[], None] = lambda: None

    def poster(self, *, chat: Chat, platform: str) -> Poster:
        """The posting service's inputs for one Chat of this process."""
        return Poster(
            uow=self.uow,
            chat=chat,
            platform=platform,
            owner=self.owner,
            owner_alive=self.owner_alive,
            telemetry=self.telemetry,
            semantic_extra=self.semantic_extra,
        )

    def on(
        self,
        *,
        chat: Chat,
        platform: str,
        admins: tuple[str, ...] | None = None,
        also_up: frozenset[str] = frozenset(),
        also_down: frozenset[str] = frozenset(),
        inline_redraw: bool = False,
    ) -> Room:
        """The club as one Chat sees it. `admins` replaces the configured ones (the console's
        person runs the place); `also_up`/`also_down` are reactions that vote on this platform
        besides the configured names (Discord's 👍 and 👎); `inline_redraw` redraws a post at
        once instead of queueing it (a terminal has no rate limit, and the person waits for
        the new counts before the next prompt)."""
        return Room(
            uow=self.uow if self.requests is None else self.requests,
            clock=self.clock,
            lookup=self.lookup,
            defaults=self.defaults,
            reschedule=self.reschedule,
            queue_redraw=self.queue_redraw,
            chat=chat,
            poster=self.poster(chat=chat, platform=platform),
            platform=platform,
            admins=self.admins if admins is None else admins,
            up=self.up_reactions | also_up,
            down=self.down_reactions | also_down,
            telemetry=self.telemetry,
            signer=self.signer,
            semantic_extra=self.semantic_extra,
            inline_redraw=inline_redraw,
            wants_reconcile=self.wants_reconcile,
            wake_reconcile=self.wake_reconcile,
            zotero=self.zotero,
            wake_zotero=self.wake_zotero,
        )

    def follow(self, *, channel: ChannelKey, private: bool) -> None:
        """Follow a channel on the default schedule, unless it is followed already."""
        with self.uow() as store:
            store.add_channel_if_missing(key=channel, schedule=self.defaults, private=private)

    def pause_workspace(self, *, platform: str, workspace: str) -> int:
        """Pause every running channel of a workspace (its bot token is gone: nothing can be
        posted there); the count paused. A reinstall leaves them paused until an admin resumes."""
        with self.uow(write=False) as store:
            keys = [
                c.key
                for c in store.channels()
                if c.key.platform == platform and c.key.workspace == workspace and not c.paused
            ]
        for key in keys:
            admin.set_paused(uow=self.uow, channel=key, paused=True, now=self.clock.now())
        if keys:
            self.reschedule()
        return len(keys)
