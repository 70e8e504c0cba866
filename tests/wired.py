"""The real wiring with the Slack plug-in, as tests and benchmarks drive it: no transport of its
own (a test serves Socket Mode or HTTP itself) and no scheduler thread unless a test starts one."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.config.settings import Settings
from bot.db.database import Database
from bot.ports import Clock
from bot.runtime.coalesce import Coalescer
from bot.runtime.wiring import Wiring
from bot.services.posting import Poster
from bot.slack import plugin as slack_plugin
from bot.slack.chat import SlackChat
from bot.slack.single import SlackPlatform
from bot.web.server import HttpService


@dataclass
class SlackBot:
    """A wired Slack platform and the wiring around it."""

    wiring: Wiring
    platform: SlackPlatform
    database: Database

    @property
    def app(self) -> Any:
        """The Bolt App."""
        return self.platform.app

    @property
    def chat(self) -> SlackChat:
        """The Slack Chat."""
        return self.platform.chat

    @property
    def poster(self) -> Poster:
        """The Slack poster."""
        return self.wiring.posters["slack"]

    @property
    def coalescer(self) -> Coalescer:
        """The shared redraw coalescer."""
        return self.wiring.coalescer

    @property
    def team_id(self) -> str:
        """The workspace auth.test named."""
        return self.platform.team_id

    def close(self) -> None:
        """Stop the scheduler (if started), send the last redraws, close the platform."""
        self.wiring.close()


def build_slack_bot(*, settings: Settings, database: Database, clock: Clock, mode: str) -> SlackBot:
    """The bot as `paperclub run` wires it for Slack in `mode`, not yet serving."""
    wiring = Wiring(
        settings=settings, database=database, clock=clock, plugins=[slack_plugin], mode=mode
    )
    platform = wiring.platforms["slack"]
    assert isinstance(platform, SlackPlatform)
    return SlackBot(wiring=wiring, platform=platform, database=database)


def http_service(*, bot: SlackBot, settings: Settings, host: str = "127.0.0.1") -> HttpService:
    """The process's HTTP server as `paperclub run` opens it (Slack's route, /healthz,
    /metrics), bound and not yet started; port 0 picks a free one."""
    return HttpService(routes=bot.wiring.routes(), host=host, port=settings.http_port)
