"""Run on Slack: Socket Mode (the default) or HTTP mode, with the scheduler beside it."""

from __future__ import annotations

import logging
import threading
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

from slack_bolt import App
from slack_bolt.adapter.socket_mode import SocketModeHandler
from slack_sdk.errors import SlackApiError
from waitress.server import create_server

from bot.config import Settings
from bot.db.store import Database
from bot.ports import Clock
from bot.runner import (
    default_schedule,
    make_lookup,
    make_poster,
    start_scheduler,
    wait_for_signal,
)
from bot.scheduler import PostScheduler
from bot.services import posting
from bot.services.posting import Poster
from bot.slack.app import PLATFORM, SlackDeps, build_app
from bot.slack.chat import SlackChat, make_client
from bot.slack.coalesce import Coalescer
from bot.slack.errors import chat_error
from bot.slack.http import make_wsgi_app

log = logging.getLogger("paperclub")


class SlackStartError(RuntimeError):
    """Slack refused to let the bot start (bad token, unreachable API)."""


@dataclass
class SlackBot:
    """The wired Slack edge: Bolt app, Chat, poster; the scheduler once started."""

    app: App
    chat: SlackChat
    poster: Poster
    database: Database
    team_id: str
    schedulers: list[PostScheduler]
    coalescer: Coalescer

    def close(self) -> None:
        """Stop the schedulers (waiting for a post in flight) and send the last vote redraws."""
        for scheduler in self.schedulers:
            scheduler.shutdown()
        self.coalescer.close()


def build_slack_bot(*, settings: Settings, database: Database, clock: Clock, mode: str) -> SlackBot:
    """Check the token, follow PAPERCLUB_CHANNEL, and build the App on our clients."""
    client = make_client(token=settings.slack_bot_token, base_url=settings.slack_api_url)
    post_client = make_client(
        token=settings.slack_bot_token, base_url=settings.slack_api_url, idempotent_only=True
    )
    try:
        identity = client.auth_test()
    except SlackApiError as exc:
        error = chat_error(error=exc)
        raise SlackStartError(f"Slack refused the bot token: {error.code} ({error.hint})") from None
    team_id = str(identity.get("team_id", ""))
    chat = SlackChat(client=client, post_client=post_client)
    poster = make_poster(database=database, chat=chat, platform=PLATFORM)
    defaults = default_schedule(settings=settings)
    if settings.channel:
        with database() as store:
            store.add_channel_if_missing(
                platform=PLATFORM, team_id=team_id, channel_id=settings.channel, schedule=defaults
            )
    schedulers: list[PostScheduler] = []

    def reschedule() -> None:
        """A schedule changed: rebuild the jobs from the database."""
        with database(write=False) as store:
            channels = store.channels()
        for scheduler in schedulers:
            scheduler.rebuild(channels=channels)

    def redraw(post_id: Hashable) -> None:
        """Redraw a post with its current counts (coalesced: Tier 3 allows ~50 a minute)."""
        found = posting.card_of_post(uow=database, platform=PLATFORM, post_id=int(str(post_id)))
        if found is not None and found[0].ts is not None:
            chat.update_post(channel=found[0].channel_id, ts=found[0].ts, card=found[1])

    coalescer = Coalescer(flush=redraw, interval=1.0)
    deps = SlackDeps(
        uow=database, chat=chat, poster=poster, clock=clock, admins=settings.admins,
        defaults=defaults, on_reschedule=reschedule, refresh_post=coalescer.touch,
        lookup=make_lookup(settings=settings),
        up_reactions=settings.up_reactions, down_reactions=settings.down_reactions,
    )  # fmt: skip
    secret = settings.slack_signing_secret if mode == "http" else None
    return SlackBot(
        app=build_app(client=client, signing_secret=secret, deps=deps),
        chat=chat, poster=poster, database=database, team_id=team_id,
        schedulers=schedulers, coalescer=coalescer,
    )  # fmt: skip


def run_slack(*, settings: Settings, database: Database, mode: str, clock: Clock) -> int:
    """Connect to Slack, schedule, serve until SIGTERM/SIGINT."""
    try:
        bot = build_slack_bot(settings=settings, database=database, clock=clock, mode=mode)
    except SlackStartError as exc:
        log.error("%s", exc)
        return 1
    log.info("connected to Slack workspace %s", bot.team_id)
    stop = wait_for_signal()
    bot.schedulers.append(start_scheduler(poster=bot.poster, database=database, clock=clock))
    try:
        if mode == "http":
            serve_http(app=bot.app, settings=settings, stop=stop)
        else:
            handler = SocketModeHandler(
                bot.app, app_token=settings.slack_app_token, web_client=bot.app.client
            )
            handler.connect()  # type: ignore[no-untyped-call]
            log.info("Socket Mode connected; Paper Club is running")
            stop.wait()
            handler.close()  # type: ignore[no-untyped-call]
    finally:
        bot.close()
    log.info("stopped cleanly")
    return 0


ALL_INTERFACES = "0.0.0.0"  # noqa: S104 - Slack must reach it; terminate TLS in front


def http_server(*, app: App, settings: Settings, host: str = ALL_INTERFACES) -> Any:
    """A bound (not yet running) waitress server for POST /slack/events and GET /healthz;
    port 0 picks a free one (tests), `effective_port` says which."""
    return create_server(
        make_wsgi_app(app=app, signing_secret=settings.slack_signing_secret or ""),
        host=host,
        port=settings.http_port,
        threads=8,
    )


class HttpService:
    """A waitress server on its own thread, stopped cleanly (a close from another thread
    makes waitress's poll loop fail on the closed socket: expected then, and swallowed)."""

    def __init__(self, *, app: App, settings: Settings, host: str = ALL_INTERFACES) -> None:
        """Bind now, so `port` is known before serving (port 0 picks a free one)."""
        self.server = http_server(app=app, settings=settings, host=host)
        self.port = int(self.server.effective_port)
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._serve, name="http", daemon=True)

    def _serve(self) -> None:
        """Serve until closed."""
        try:
            self.server.run()
        except (OSError, ValueError):
            if not self._stopping.is_set():
                raise

    def start(self) -> None:
        """Serve requests."""
        self._thread.start()

    def stop(self) -> None:
        """Stop accepting, let waitress's workers finish, join the thread."""
        self._stopping.set()
        self.server.close()
        self.server.task_dispatcher.shutdown()
        self._thread.join(timeout=10)


def serve_http(*, app: App, settings: Settings, stop: threading.Event) -> None:
    """Serve with waitress until the stop event is set."""
    service = HttpService(app=app, settings=settings)
    service.start()
    log.info("HTTP mode: listening on port %s (POST /slack/events)", service.port)
    stop.wait()
    service.stop()
