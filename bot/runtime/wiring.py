"""One wiring for every platform: the archive, the clock, look-ups, one scheduler and one redraw
coalescer, shared by each platform plug-in that runs in this process."""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING

from bot.config.settings import Settings
from bot.db.database import Database
from bot.domain import Channel, ChannelKey
from bot.runtime import metrics
from bot.runtime.coalesce import Coalescer
from bot.runtime.db_probe import probe_database
from bot.runtime.health import Health, Heartbeat, check

if TYPE_CHECKING:
    from bot.runtime.leader import Leadership
    from bot.web.server import HttpService
from bot.ports import Chat, Clock, PaperLookup, Platform, ServesHttp, WsgiApp
from bot.runtime import parts, workers
from bot.runtime.leader import replica_running_since, started_on_server
from bot.runtime.platforms import Plugin
from bot.runtime.process import OWNER, owner_alive, signals_held
from bot.runtime.scheduler import PostScheduler
from bot.services import posting
from bot.services.club import Club
from bot.services.post_card import redraw
from bot.services.posting import Poster
from bot.services.sweep import Sweep
from bot.web.signin import signer as web_signer
from bot.zotero.desk import make_desk

log = logging.getLogger("paperclub")


class Wiring:
    """Every configured platform on one archive, one scheduler and one coalescer."""

    def __init__(
        self,
        *,
        settings: Settings,
        database: Database,
        clock: Clock,
        plugins: Sequence[Plugin],
        mode: str = "auto",
        lookup: PaperLookup | None = None,
    ) -> None:
        """Build what is shared, then each platform on it (platforms may raise
        PlatformStartError: whatever was started is stopped again)."""
        self.database = database
        self.clock = clock
        self.settings = settings
        self.heartbeat = Heartbeat()
        # One process on SQLite; on PostgreSQL replicas elect a leader to run the scheduler.
        self.replicated = database.engine.dialect.name == "postgresql"
        # When this process began, on the database's clock (its sessions are stamped by it,
        # and this process's own leadership session begins after this).
        self.began = started_on_server(engine=database.engine) if self.replicated else None
        self.leadership: Leadership | None = None
        self.http: HttpService | None = None
        # Tier 3 allows ~50 chat.update a minute: a burst of votes makes a handful of redraws.
        self.coalescer = Coalescer(flush=self._redraw, interval=1.0)
        telemetry = metrics.PrometheusTelemetry()  # the counts GET /metrics shows
        self.workers = workers.build(
            settings=settings,
            database=database,
            clock=clock,
            telemetry=telemetry,
            queue_redraw=self.coalescer.touch,
            chats=lambda: {name: p.chat for name, p in self.platforms.items()},
            leading=self._leading,
            others_served=self._others_served,
        )
        self.club = Club(
            uow=database,
            clock=clock,
            lookup=lookup or parts.make_lookup(settings=settings),
            owner=OWNER,
            owner_alive=owner_alive,
            defaults=parts.default_schedule(settings=settings),
            admins=settings.admins,
            up_reactions=settings.up_reactions,
            down_reactions=settings.down_reactions,
            reschedule=self.reschedule,
            queue_redraw=self.coalescer.touch,
            semantic_extra=self.workers.embedder.semantic_extra,  # search, related, taste, add
            enrich_next=self._enrich_next,
            seen_requests=parts.seen_requests(database=database) if self.replicated else None,
            telemetry=telemetry,
            signer=web_signer(settings=settings),  # /paperclub web's links
            requests=database.requests,  # people's writes give up within Slack's 3 s
            wants_reconcile=self.workers.reconciling.want,
            wake_reconcile=self.workers.reconciling.wake,
            zotero=make_desk(settings=settings),  # /paperclub watch zotero
            wake_zotero=self.workers.zotero.wake if self.workers.zotero else lambda: None,
        )
        self.platforms: dict[str, Platform] = {}
        self.posters: dict[str, Poster] = {}
        self.sweeper = Sweep(
            uow=database,
            clock=clock,
            posters=self.posters,
            enrichment=self.workers.enricher,
            embedding=self.workers.embedder,
            defaults=parts.default_schedule(settings=settings),
            beat=self._beat,
            scorer_for=self.workers.tastes,
        )
        self.scheduler = PostScheduler(
            on_channel=self.sweeper.on_channel,
            on_sweep=self.sweeper.on_sweep,
            on_heartbeat=self._beat,
        )
        try:
            for plugin in plugins:
                platform = plugin.build(settings=settings, club=self.club, mode=mode)
                self.platforms[platform.name] = platform
                self.posters[platform.name] = self.club.poster(
                    chat=platform.chat, platform=platform.name
                )
        except BaseException:
            self.close()
            raise
        self._started = False

    def _enrich_next(self, key: ChannelKey) -> None:
        """Enrich a channel's next paper now (the console posts at once when it opens)."""
        self.workers.enricher.next_of(channel=key, now=self.clock.now())

    def channels(self) -> list[Channel]:
        """The followed channels of the platforms running here (no job fires for another)."""
        with self.database(write=False) as store:
            return [c for c in store.channels() if c.key.platform in self.platforms]

    def start(self, *, paused: bool = False) -> None:
        """Start the scheduler: a job per channel, and the sweep at once (the catch-up);
        `paused` keeps every job from firing (tests that read the jobs). With replicas the
        jobs wait until this one leads."""
        if not paused:
            self.workers.start()
        standby = self.replicated and not paused
        self.scheduler.start(channels=self.channels(), paused=paused or standby)
        self._started = True
        if standby:
            from bot.runtime.leader import Leadership

            self.leadership = Leadership(
                url=self.database.url,
                on_lead=self._lead,
                on_lose=self.scheduler.stand_by,
                heartbeat=self.heartbeat,
            )
            self.leadership.start()
        elif not paused:
            metrics.LEADER.set(1)  # one process: it runs the scheduler

    def _lead(self) -> None:
        """This replica leads: the jobs as the database says now (another replica may have
        changed a schedule), then a catch-up sweep at once."""
        self.scheduler.rebuild(channels=self.channels())
        self.scheduler.lead()

    def _leading(self) -> bool:
        """Whether this process runs the scheduler's work now (alone, it always does)."""
        return not self.replicated or (self.leadership is not None and self.leadership.leading)

    def _others_served(self) -> bool:
        """Whether another replica has been running since this process began (PostgreSQL
        only: one SQLite process is alone)."""
        return self.began is not None and replica_running_since(
            engine=self.database.engine, before=self.began
        )

    def _beat(self) -> None:
        """The scheduler's worker is alive (it runs this job between posts)."""
        self.heartbeat.beat(role="leader" if self.replicated else "scheduler")

    def health(self) -> Health:
        """What /healthz answers: the database and the heartbeat."""
        return check(ping=self._ping, heartbeat=self.heartbeat)

    def _ping(self) -> None:
        """The database takes a write now (raises when it cannot: bot.runtime.db_probe)."""
        probe_database(engine=self.database.engine)

    def routes(self, *, archive: bool | None = None, host: str | None = None) -> dict[str, WsgiApp]:
        """Every path the process's server (on `host`, default PAPERCLUB_HTTP_HOST) answers:
        /healthz, /metrics, the platforms' and, in HTTP mode (or when `archive` says so), the
        web archive under /archive."""
        from bot.web.ops import ops_routes

        platform = self.platform_routes()
        routes = ops_routes(check=self.health, metrics=metrics.metrics_app) | platform
        # Only HTTP mode mounts it: there the server is the public face a deployment already
        # exposes; Socket Mode's is for probes, and the archive has PAPERCLUB_WEB_PORT there.
        if bool(platform) if archive is None else archive:
            from bot.web.archive_serve import archive_routes

            routes |= archive_routes(
                uow=self.database,
                settings=self.settings,
                clock=self.clock,
                host=host or self.settings.http_host,
                semantic_extra=self.club.semantic_extra,
                telemetry=self.club.telemetry,
            )
        return routes

    def platform_routes(self) -> dict[str, WsgiApp]:
        """The paths the platforms answer (Slack's in HTTP mode), without which they cannot
        work, unlike /healthz and /metrics."""
        routes: dict[str, WsgiApp] = {}
        for platform in self.platforms.values():
            if isinstance(platform, ServesHttp):
                routes.update(platform.routes)
        return routes

    def open_http(self, *, host: str, port: int, archive: bool | None = None) -> HttpService:
        """Bind and serve the process's HTTP server (PortTaken when the address is in use)."""
        from bot.web.server import HttpService

        routes = self.routes(archive=archive, host=host)  # once: each call builds them anew
        self.http = HttpService(routes=routes, host=host, port=port)
        self.http.start()
        log.info("serving HTTP on %s:%s (%s)", host, self.http.port, ", ".join(routes))
        return self.http

    def reschedule(self) -> None:
        """A schedule changed: rebuild the jobs from the database."""
        if self._started:
            self.scheduler.rebuild(channels=self.channels())

    def sweep(self) -> dict[ChannelKey, posting.PostResult]:
        """Post whatever is due and not posted yet on every platform, then due weekly recaps."""
        return self.sweeper.sweep()

    def _redraw(self, post_id: object) -> None:
        """Redraw a post with its current counts, on the platform it was posted to."""
        redraw(
            uow=self.database,
            post_id=int(str(post_id)),
            chat_of=self._chat_of,
            semantic_extra=self.club.semantic_extra,
        )

    def _chat_of(self, platform: str) -> Chat | None:
        """The Chat of a platform running here."""
        found = self.platforms.get(platform)
        return None if found is None else found.chat

    def serve(self, *, stop: threading.Event) -> None:
        """Serve every platform until `stop` is set or the last one ends by itself (the console
        on EOF): the others on their own threads, the last on this one (signals reach it)."""
        *others, last = list(self.platforms.values())
        threads = [
            threading.Thread(target=p.serve, kwargs={"stop": stop}, name=p.name, daemon=True)
            for p in others
        ]
        with signals_held():
            for thread in threads:
                thread.start()
        try:
            last.serve(stop=stop)
        finally:
            stop.set()
            for thread in threads:
                thread.join(timeout=15)

    def close(self) -> None:
        """Stop the HTTP server first (a request taken later could not be redrawn any more),
        let go of the lead, stop the scheduler (waiting for a post in flight), send the last
        redraws, close every platform."""
        if self.http is not None:
            self.http.stop()
            self.http = None
        if self.leadership is not None:
            self.leadership.stop_asking()
        self.scheduler.shutdown()
        if self.leadership is not None:  # held until the post in flight is done
            self.leadership.close()
        metrics.LEADER.set(0)
        self.workers.close()
        self.coalescer.close()
        for platform in self.platforms.values():
            platform.close()
