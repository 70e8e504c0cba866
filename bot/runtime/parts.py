"""What the wiring builds from the settings: the default schedule, the paper look-up, the
replicas' shared memory of signed requests and the enrichment sources."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from bot.config.settings import Settings
from bot.db.database import Database
from bot.domain import Schedule
from bot.lookup import HttpLookup
from bot.ports import Clock, SeenRequests
from bot.runtime.process import OWNER, owner_alive
from bot.services.reconcile_run import Reconciler
from bot.services.telemetry import Telemetry

if TYPE_CHECKING:
    from bot.enrich.sources import Sources


def default_schedule(*, settings: Settings) -> Schedule:
    """The schedule a channel gets unless an admin sets its own."""
    return Schedule(
        post_time=settings.post_time, timezone=settings.timezone, weekdays=settings.days
    )


def make_lookup(*, settings: Settings) -> HttpLookup:
    """arXiv and Crossref, where the settings say."""
    return HttpLookup(
        arxiv_url=settings.arxiv_api_url,
        crossref_url=settings.crossref_api_url,
        timeout=settings.lookup_timeout,
    )


def seen_requests(*, database: Database) -> SeenRequests:
    """Signed requests' signatures in the database every replica shares."""
    from bot.db.seen_requests import SharedSeenRequests

    return SharedSeenRequests(engine=database.engine)


def sources(*, settings: Settings, database: Database, clock: Clock) -> Sources:
    """arXiv and Crossref as the settings say (imported here, when first needed)."""
    from bot.enrich.setup import make_sources

    return make_sources(settings=settings, uow=database, clock=clock)


def reconciler(
    *,
    settings: Settings,
    database: Database,
    clock: Clock,
    telemetry: Telemetry,
    queue_redraw: Callable[[int], None],
) -> Reconciler:
    """What reads posts back after events were lost, on this process's archive."""
    return Reconciler(
        uow=database,
        clock=clock,
        owner=OWNER,
        owner_alive=owner_alive,
        # Discord votes with the emoji itself too (bot.discord.deps.UP, DOWN, as its Room
        # does): without them a read-back withdrew every reaction's vote there.
        up=settings.up_reactions | {"👍"},
        down=settings.down_reactions | {"👎"},
        telemetry=telemetry,
        queue_redraw=queue_redraw,
    )
