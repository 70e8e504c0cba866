"""The registry of platform plug-ins: adding a platform is a folder under bot/ and one entry here.

Each entry names a module (imported only when that platform runs, so `paperclub run` loads no
library it does not use) with NAME, `configured(settings=)`, `missing(settings=, mode=)` and
`build(settings=, club=, mode=) -> Platform`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Protocol

from bot.config.settings import Settings
from bot.ports import Platform
from bot.services.club import Club

REGISTRY: dict[str, str] = {
    "slack": "bot.slack.plugin",  # one workspace (bot.slack.single), or distribution
    "discord": "bot.discord.plugin",
    "console": "bot.console.plugin",
}
# Whether a platform is configured is read off the settings here, without importing its
# plug-in: importing bot.discord loads discord.py and aiohttp, which a Slack-only run never
# needs (start-up time, memory). Each plug-in's configured() says the same (a test checks).
CONFIGURED: dict[str, Callable[[Settings], bool]] = {
    "slack": lambda s: s.slack_configured,
    "discord": lambda s: s.discord_configured,
    "console": lambda s: True,  # needs nothing; chosen() runs it only alone
}
# The console is the fallback: it runs when no other platform is configured, never beside one.
FALLBACK = "console"


class Plugin(Protocol):
    """What a platform folder's plugin module offers."""

    NAME: str

    def configured(self, *, settings: Settings) -> bool:
        """Whether the settings hold what this platform needs."""
        ...

    def missing(self, *, settings: Settings, mode: str) -> list[str]:
        """The variables this platform needs in `mode` that are not set."""
        ...

    def build(self, *, settings: Settings, club: Club, mode: str) -> Platform:
        """Connect and wire the platform (raises PlatformStartError when it cannot)."""
        ...


def plugin(*, name: str) -> Plugin:
    """The plugin module of a registered platform."""
    module: Plugin = importlib.import_module(REGISTRY[name])
    return module


def chosen(*, settings: Settings, mode: str) -> list[str]:
    """The platforms to run: the console alone in console mode; otherwise every configured one
    (a Slack mode, socket or http, runs Slack whether or not its tokens are set, so that a
    missing one is named), else the console."""
    if mode == "console":
        return [FALLBACK]
    names = [
        name
        for name in REGISTRY
        if name != FALLBACK and (CONFIGURED[name](settings) or (name, mode) in SLACK_MODES)
    ]
    return names or [FALLBACK]


SLACK_MODES = {("slack", "socket"), ("slack", "http")}
