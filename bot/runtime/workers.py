"""The process's threads beside the scheduler, built from the settings and started and
stopped together: enrichment, embedding, read-backs of missed events, reading the watches,
syncing with Zotero."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.config.settings import Settings
from bot.db.database import Database
from bot.enrich.background import Enricher
from bot.outbound.fetch import PoliteFetcher
from bot.ports import Chat, Clock
from bot.runtime import parts
from bot.runtime.reading import SourcesWorker
from bot.runtime.reconciling import ReconcileWorker
from bot.runtime.zotero_syncing import ZoteroWorker
from bot.sealing import TokenCipher
from bot.semantic.background import Embedder
from bot.services.suggestion_taste import TasteScorers, taste_scorers
from bot.services.telemetry import Telemetry
from bot.sources.watch_text import SourceBases
from bot.zotero.desk import sessions


@dataclass(frozen=True, slots=True)
class Workers:
    """Each background thread of the process."""

    enricher: Enricher
    embedder: Embedder
    reconciling: ReconcileWorker
    reading: SourcesWorker
    # The suggestions' taste model: the sweep ranks with it, the reading thread warms it.
    tastes: TasteScorers
    # None without PAPERCLUB_SECRET_KEY: no Zotero key can be kept, so none is synced.
    zotero: ZoteroWorker | None = None

    def start(self) -> None:
        """Start them all (a start follows downtime: what was missed is read back, and a
        cycle a stopped process left unread is read)."""
        self.enricher.start()
        self.embedder.start()
        self.reconciling.start()
        self.reading.start()
        if self.zotero is not None:
            self.zotero.start()

    def close(self) -> None:
        """Stop them all, each after the step in flight."""
        if self.zotero is not None:
            self.zotero.close()
        self.reading.close()
        self.reconciling.close()
        self.enricher.close()
        self.embedder.close()


def build(
    *,
    settings: Settings,
    database: Database,
    clock: Clock,
    telemetry: Telemetry,
    queue_redraw: Callable[[int], None],
    chats: Callable[[], dict[str, Chat]],
    leading: Callable[[], bool],
    others_served: Callable[[], bool],
) -> Workers:
    """The threads on this process's archive. `chats`: the platforms running here (read at
    each pass); `leading`: whether this process runs the scheduler's work now;
    `others_served`: whether another replica ran all along (bot.runtime.reconciling)."""
    sources = settings.sources
    embedder = Embedder.wired(enabled=settings.semantic, uow=database, clock=clock)
    tastes = taste_scorers(semantic_extra=embedder.semantic_extra, uow=database)
    return Workers(
        enricher=Enricher(
            uow=database,
            sources=lambda: parts.sources(settings=settings, database=database, clock=clock),
            clock=clock,
        ),
        embedder=embedder,
        reconciling=ReconcileWorker(
            reconciler=parts.reconciler(
                settings=settings,
                database=database,
                clock=clock,
                telemetry=telemetry,
                queue_redraw=queue_redraw,
            ),
            clock=clock,
            platforms=chats,
            leading=leading,
            others_served=others_served,
        ),
        reading=SourcesWorker(
            uow=database,
            fetcher=PoliteFetcher(contact=settings.contact, allow_private=sources.allow_private),
            bases=SourceBases(
                arxiv_feed=sources.arxiv_feed_url,
                arxiv_api=settings.arxiv_api_url,
                crossref=settings.crossref_api_url,
            ),
            clock=clock,
            platforms=chats,
            leading=leading,
            poll=sources.poll,
            warm=tastes,
        ),
        tastes=tastes,
        zotero=_zotero(
            settings=settings, database=database, clock=clock, chats=chats, leading=leading
        ),
    )


def _zotero(
    *,
    settings: Settings,
    database: Database,
    clock: Clock,
    chats: Callable[[], dict[str, Chat]],
    leading: Callable[[], bool],
) -> ZoteroWorker | None:
    """The Zotero sync, when keys can be opened (PAPERCLUB_SECRET_KEY is set)."""
    if not settings.secret_keys:
        return None
    return ZoteroWorker(
        uow=database,
        cipher=TokenCipher(keys=settings.secret_keys),
        new_session=sessions(settings=settings),
        clock=clock,
        platforms=chats,
        leading=leading,
        poll=settings.zotero_sync_seconds,
    )
