"""Slack as a platform plug-in: Socket Mode or signed HTTP, on the shared archive and scheduler."""

from __future__ import annotations

import logging
import signal
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cached_property
from threading import Event

from slack_bolt import App
from slack_sdk.errors import SlackApiError

from bot.config.settings import Settings
from bot.domain import ChannelKey
from bot.messages import Message
from bot.ports import PlatformStartError, SeenRequests, WsgiApp, wait_for_stop
from bot.services.club import Club
from bot.services.posting import Poster
from bot.slack.app import build_app
from bot.slack.chat import SlackChat
from bot.slack.client import make_client
from bot.slack.deps import PLATFORM, SlackDeps
from bot.slack.errors import chat_error
from bot.slack.pacing import HistoryLimits
from bot.slack.readback import SlackReadBack
from bot.slack.render import fallback
from bot.slack.socket_mode import SteadyHandler, close_fast, connect_watched, wait_open

log = logging.getLogger("paperclub")
NAME = PLATFORM
MODES = ("socket", "http")


def configured(*, settings: Settings) -> bool:
    """A bot token, with an app token (Socket Mode) or a signing secret (HTTP)."""
    return settings.slack_configured


def mode_for(*, settings: Settings, mode: str) -> str:
    """auto: Socket Mode with an app token, else HTTP."""
    if mode in MODES:
        return mode
    return "socket" if settings.slack_app_token else "http"


def missing(*, settings: Settings, mode: str) -> list[str]:
    """The variables a mode needs that are not set."""
    need = [("SLACK_BOT_TOKEN", settings.slack_bot_token)]
    if mode == "socket":
        need.append(("SLACK_APP_TOKEN", settings.slack_app_token))
    elif mode == "http":
        need.append(("SLACK_SIGNING_SECRET", settings.slack_signing_secret))
    return [name for name, value in need if not value]


@dataclass
class SlackPlatform:
    """The wired Slack edge: Bolt app, Chat and poster, served in one mode."""

    app: App
    chat: SlackChat
    poster: Poster
    team_id: str
    mode: str
    settings: Settings
    seen_requests: SeenRequests | None = None
    # Called when events begin to flow: a Socket Mode session opens, the first included, or
    # HTTP mode serves (Room.reconcile_soon).
    reconcile: Callable[[], None] = lambda: None

    @property
    def name(self) -> str:
        """Channel keys say "slack"."""
        return NAME

    @cached_property
    def routes(self) -> Mapping[str, WsgiApp]:
        """POST /slack/events in HTTP mode, on the process's server; nothing in Socket Mode."""
        if self.mode != "http":
            return {}
        from bot.slack.http import make_wsgi_app

        secret = self.settings.slack_signing_secret or ""
        wsgi = make_wsgi_app(app=self.app, signing_secret=secret, replays=self.seen_requests)
        return {"/slack/events": wsgi}

    def render(self, *, message: Message) -> str:
        """The message as mrkdwn (its first paragraph: what a notification shows)."""
        return fallback(message=message, names=self.chat.names)

    def serve(self, *, stop: Event) -> None:
        """Serve until `stop` is set: a Socket Mode connection, or (HTTP mode) nothing of its
        own: the process's server hands Slack's requests to `routes`."""
        if self.mode == "http":
            log.info("HTTP mode: Slack's requests go to POST /slack/events")
            # Events flow from now on (the process's server is up): what Slack gave up on
            # while nothing answered is read back.
            self.reconcile()
            wait_for_stop(stop=stop)
            return
        # The client's threads must not take SIGTERM from the thread waiting below (the kernel
        # may pick any thread that does not block it; see signals_held in bot.runtime.process);
        # the wait for the socket to open is outside, so a stop still ends a connection that
        # never opens.
        held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
        try:
            handler = SteadyHandler(
                self.app,
                app_token=self.settings.slack_app_token or "",
                web_client=self.app.client,
                on_reopen=self.reconcile,
            )
            try:
                opened = connect_watched(handler=handler)
            except BaseException:  # apps.connections.open refused: its threads go too
                close_fast(handler=handler)
                raise
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)
        try:
            if wait_open(opened=opened, stop=stop):
                log.info("Socket Mode connected")
                wait_for_stop(stop=stop)
        finally:
            close_fast(handler=handler)

    def close(self) -> None:
        """Nothing is left open once serve returned; a read-back waiting out Slack's limits
        gives up now."""
        self.chat.reader.halt()


def _app_id(*, chat: SlackChat, bot_id: str) -> str | None:
    """Our app's id (bots.info), to refuse requests meant for another app; None if unknown."""
    try:
        return str(chat.client.bots_info(bot=bot_id)["bot"]["app_id"]) if bot_id else None
    except (SlackApiError, KeyError, OSError) as exc:
        log.warning("bots.info failed (%s); requests are checked by team only", exc)
        return None


def build(*, settings: Settings, club: Club, mode: str) -> SlackPlatform:
    """Check the token, follow PAPERCLUB_CHANNEL, and build the App on our clients."""
    chosen = mode_for(settings=settings, mode=mode)
    client = make_client(
        token=settings.slack_bot_token,
        base_url=settings.slack_api_url,
        telemetry=club.telemetry,
    )
    post_client = make_client(
        token=settings.slack_bot_token,
        base_url=settings.slack_api_url,
        telemetry=club.telemetry,
        idempotent_only=True,
    )
    try:
        identity = client.auth_test()
    except SlackApiError as exc:
        error = chat_error(error=exc)
        raise PlatformStartError(
            f"Slack refused the bot token: {error.code} ({error.hint})"
        ) from None
    except OSError as exc:  # URLError, refused, timed out, no such host
        why = getattr(exc, "reason", exc)
        raise PlatformStartError(
            f"Slack's API cannot be reached at SLACK_API_URL={settings.slack_api_url} ({why})"
        ) from None
    team_id = str(identity.get("team_id", ""))
    reader_client = make_client(
        token=settings.slack_bot_token,
        base_url=settings.slack_api_url,
        telemetry=club.telemetry,
        rate_limit_retries=False,
    )
    limits = HistoryLimits(kind=settings.slack_history_limits)
    reader = SlackReadBack(client=reader_client, limits=limits)
    chat = SlackChat(client=client, post_client=post_client, reader=reader)
    room = club.on(chat=chat, platform=NAME)
    if settings.channel:
        key = ChannelKey(platform=NAME, workspace=team_id, channel=settings.channel)
        club.follow(channel=key, private=chat.is_private(channel=key))
    deps = SlackDeps(
        room=room,
        chat=chat,
        team_id=team_id,
        app_id=_app_id(chat=chat, bot_id=str(identity.get("bot_id") or "")),
    )
    secret = settings.slack_signing_secret if chosen == "http" else None
    log.info("connected to Slack workspace %s", team_id)
    return SlackPlatform(
        app=build_app(client=client, signing_secret=secret, deps=deps),
        chat=chat,
        poster=room.poster,
        team_id=team_id,
        mode=chosen,
        settings=settings,
        seen_requests=club.seen_requests,
        reconcile=room.reconcile_soon,
    )
