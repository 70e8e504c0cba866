"""Distribution mode: one process serves every workspace that installed the app through OAuth.

An OAuth App (slack_bolt's flow on slack_sdk's stores) answers GET /slack/install and
/slack/oauth_redirect and the uninstall events; every other request is handed to the Bolt app
of its own workspace, built on that workspace's bot token exactly as single-workspace mode
builds its one app (same listeners, same guard). A request from a team with no installation is
acknowledged with an empty 200, logged, and goes no further: nothing of it is stored.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from threading import Event
from typing import Any

from slack_bolt import App, BoltRequest, BoltResponse
from slack_bolt.authorization import AuthorizeResult
from slack_bolt.authorization.authorize import Authorize
from slack_bolt.oauth.oauth_settings import OAuthSettings
from slack_sdk.oauth.installation_store import Bot, InstallationStore
from slack_sdk.oauth.state_store import OAuthStateStore

from bot.config.settings import Settings
from bot.messages import Message
from bot.ports import PlatformStartError, WsgiApp, wait_for_stop
from bot.services.club import Club
from bot.services.telemetry import Telemetry
from bot.slack.app import build_app
from bot.slack.chat import SlackChat
from bot.slack.client import make_client
from bot.slack.deps import PLATFORM, SlackDeps
from bot.slack.oauth_http import oauth_wsgi
from bot.slack.pacing import HistoryLimits, Pacer
from bot.slack.readback import SlackReadBack
from bot.slack.render import fallback
from bot.slack.teams import Team, TeamChat, Teams
from bot.slack.workspace import enterprise_of, workspace_of

log = logging.getLogger("paperclub")
INSTALL_PATH = "/slack/install"
REDIRECT_PATH = "/slack/oauth_redirect"
# Events about the installation itself: the OAuth App's token-revocation listeners take them.
LIFECYCLE_EVENTS = frozenset({"app_uninstalled", "tokens_revoked"})


class StoredBot(Authorize):
    """Bolt's authorization for one workspace's app: its bot as the installation stored it."""

    def __init__(self, *, bot: Bot) -> None:
        """Authorize every request with this bot (Authorize's own __init__ does nothing)."""
        self._result = AuthorizeResult(
            enterprise_id=bot.enterprise_id,
            team_id=bot.team_id,
            bot_user_id=bot.bot_user_id,
            bot_id=bot.bot_id,
            bot_token=bot.bot_token,
            bot_scopes=bot.bot_scopes,
        )

    def __call__(self, **_kwargs: Any) -> AuthorizeResult:
        """The stored bot (the router sent only this workspace's requests here; the guard
        refuses any other team's all the same)."""
        return self._result


class TeamRouter:
    """What Slack's POSTs are dispatched to: the OAuth App for the handshake and the uninstall
    events, the workspace's own app for the rest, an empty 200 for a team not installed."""

    def __init__(self, *, oauth_app: App, teams: Teams, club: Club) -> None:
        """Route between the OAuth App and the installed workspaces."""
        self._oauth_app, self._teams, self._club = oauth_app, teams, club

    def dispatch(self, req: BoltRequest) -> BoltResponse:
        """Hand one verified request to whoever answers it."""
        body: Mapping[str, Any] = req.body or {}
        kind = str(body.get("type") or "command")
        if kind in ("url_verification", "ssl_check") or body.get("ssl_check"):
            return self._oauth_app.dispatch(req)
        team_id, enterprise_id = workspace_of(body=body), enterprise_of(body=body)
        event = str((body.get("event") or {}).get("type") or "")
        if event in LIFECYCLE_EVENTS:
            had = self._teams.get(team_id=team_id, enterprise_id=enterprise_id) is not None
            response = self._oauth_app.dispatch(req)  # deletes the tokens (Bolt's listeners)
            gone = self._teams.get(team_id=team_id, enterprise_id=enterprise_id) is None
            paused = self._pause(team_id=team_id) if had and gone and team_id else 0
            log.info(
                "workspace %s: %s; tokens deleted, %d channel(s) paused", team_id, event, paused
            )
            return response
        team = self._teams.get(team_id=team_id, enterprise_id=enterprise_id)
        if team is None:
            log.warning("ignored a %s %s from team %s: no installation", kind, event, team_id)
            # Acknowledged, so Slack does not deliver it again; nothing of it is kept.
            return BoltResponse(status=200, body="")
        return team.app.dispatch(req)

    def _pause(self, *, team_id: str) -> int:
        """Pause the channels of a workspace that lost its bot token: without it nothing can be
        posted there, and the minute sweep would try again and again. A reinstall leaves them
        paused until an admin resumes them (/paperclub resume, or the App Home)."""
        return self._club.pause_workspace(platform=PLATFORM, workspace=team_id)


@dataclass
class DistributedPlatform:
    """The Slack edge of every installed workspace, on the process's HTTP server."""

    oauth_app: App
    teams: Teams
    chat: TeamChat
    settings: Settings
    club: Club
    on_close: Callable[[], None] = field(default=lambda: None)

    @property
    def name(self) -> str:
        """Channel keys say "slack"."""
        return PLATFORM

    @cached_property
    def routes(self) -> Mapping[str, WsgiApp]:
        """POST /slack/events, GET /slack/install and GET /slack/oauth_redirect."""
        from bot.slack.http import make_wsgi_app

        secret = self.settings.slack_signing_secret or ""
        router = TeamRouter(oauth_app=self.oauth_app, teams=self.teams, club=self.club)
        events = make_wsgi_app(app=router, signing_secret=secret, replays=self.club.seen_requests)
        flow = oauth_wsgi(app=self.oauth_app)
        return {"/slack/events": events, INSTALL_PATH: flow, REDIRECT_PATH: flow}

    def render(self, *, message: Message) -> str:
        """The message as mrkdwn; people are named by id (no one workspace to ask)."""
        return fallback(message=message, names=lambda user: user)

    def serve(self, *, stop: Event) -> None:
        """Nothing of its own: the process's server hands Slack's requests to `routes`."""
        log.info(
            "distribution: install at GET %s; Slack's requests go to POST /slack/events",
            INSTALL_PATH,
        )
        # Events flow from now on: what Slack gave up on while nothing answered is read back.
        self.club.wants_reconcile(PLATFORM)
        wait_for_stop(stop=stop)

    def close(self) -> None:
        """Let go of the stores' database connections."""
        self.on_close()


def _oauth_app(
    *,
    settings: Settings,
    installations: InstallationStore,
    states: OAuthStateStore,
    telemetry: Telemetry,
) -> App:
    """The App that runs Bolt's OAuth flow; every call, oauth.v2.access too, to SLACK_API_URL."""
    oauth = settings.slack_distribution
    assert oauth is not None
    app = App(
        name="paperclub",
        client=make_client(token=None, base_url=settings.slack_api_url, telemetry=telemetry),
        signing_secret=settings.slack_signing_secret or "",
        process_before_response=True,
        oauth_settings=OAuthSettings(
            client_id=oauth.client_id,
            client_secret=oauth.client_secret,
            scopes=list(oauth.scopes),
            installation_store=installations,
            state_store=states,
            install_path=INSTALL_PATH,
            redirect_uri_path=REDIRECT_PATH,
            authorization_url=oauth.authorize_url,
            # "Add to Slack" on a web page links here: straight on to Slack's consent page.
            install_page_rendering_enabled=False,
        ),
    )
    app.enable_token_revocation_listeners()
    return app


def build(
    *,
    settings: Settings,
    club: Club,
    mode: str,
    installations: InstallationStore,
    states: OAuthStateStore,
    on_close: Callable[[], None],
) -> DistributedPlatform:
    """Wire distribution mode on the given stores (HTTP only: Slack reaches every workspace's
    events through one Request URL)."""
    if mode == "socket":
        raise PlatformStartError(
            "OAuth distribution (SLACK_CLIENT_ID) runs in HTTP mode; drop --mode socket"
        )
    if not settings.slack_signing_secret:
        raise PlatformStartError("OAuth distribution needs SLACK_SIGNING_SECRET too")
    if settings.channel:
        log.warning("PAPERCLUB_CHANNEL is ignored in distribution: /paperclub schedule follows")

    # One pacer for every workspace (it keeps each one's waits apart), halted on close.
    pacer = Pacer()
    limits = HistoryLimits(kind=settings.slack_history_limits)

    def closing() -> None:
        """End the read-back's waits, then let go of the stores."""
        pacer.halt()
        on_close()

    def wire(bot: Bot) -> Team:
        """A workspace's own app, Chat and poster on its bot token."""
        client = make_client(
            token=bot.bot_token, base_url=settings.slack_api_url, telemetry=club.telemetry
        )
        # The App's own client carries no token: with SLACK_CLIENT_ID in the environment Bolt
        # would otherwise load OAuth settings of its own and drop the token; the stored bot
        # authorizes each request instead (no auth.test either).
        bare = make_client(token=None, base_url=settings.slack_api_url, telemetry=club.telemetry)
        post_client = make_client(
            token=bot.bot_token,
            base_url=settings.slack_api_url,
            telemetry=club.telemetry,
            idempotent_only=True,
        )
        reader_client = make_client(
            token=bot.bot_token,
            base_url=settings.slack_api_url,
            telemetry=club.telemetry,
            rate_limit_retries=False,
        )
        reader = SlackReadBack(client=reader_client, limits=limits, pacer=pacer)
        chat = SlackChat(client=client, post_client=post_client, reader=reader)
        room = club.on(chat=chat, platform=PLATFORM)
        deps = SlackDeps(room=room, chat=chat, team_id=str(bot.team_id), app_id=bot.app_id)
        app = build_app(
            client=bare,
            signing_secret=settings.slack_signing_secret,
            deps=deps,
            authorize=StoredBot(bot=bot),
        )
        log.info("serving Slack workspace %s", bot.team_id)
        return Team(
            team_id=str(bot.team_id),
            token=str(bot.bot_token),
            app=app,
            chat=chat,
            poster=room.poster,
        )

    teams = Teams(store=installations, build=wire)
    return DistributedPlatform(
        oauth_app=_oauth_app(
            settings=settings,
            installations=installations,
            states=states,
            telemetry=club.telemetry,
        ),
        teams=teams,
        chat=TeamChat(teams=teams),
        settings=settings,
        club=club,
        on_close=closing,
    )
