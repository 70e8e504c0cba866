"""Which platforms `paperclub run` starts: every configured one, the console only alone."""

from __future__ import annotations

import pytest

from bot.config.settings import Settings
from bot.runtime.platforms import CONFIGURED, REGISTRY, chosen, plugin

SLACK = {"slack_bot_token": "xoxb-1", "slack_app_token": "xapp-1"}
DISCORD = {"discord_token": "MTEw.x.y"}


@pytest.mark.parametrize(
    ("values", "mode", "expected"),
    [
        ({}, "auto", ["console"]),
        (SLACK, "auto", ["slack"]),
        (DISCORD, "auto", ["discord"]),
        (SLACK | DISCORD, "auto", ["slack", "discord"]),
        (SLACK | DISCORD, "socket", ["slack", "discord"]),
        (DISCORD, "http", ["slack", "discord"]),  # Slack's mode asked: its missing token is named
        (SLACK | DISCORD, "console", ["console"]),
    ],
)
def test_chosen(values: dict[str, str], mode: str, expected: list[str]) -> None:
    assert chosen(settings=Settings(**values), mode=mode) == expected  # type: ignore[arg-type]


def test_every_registered_plugin_names_itself_and_what_it_misses() -> None:
    for name in REGISTRY:
        module = plugin(name=name)
        assert name == module.NAME
        assert isinstance(module.missing(settings=Settings(), mode="auto"), list)
    assert plugin(name="discord").missing(settings=Settings(), mode="auto") == ["DISCORD_TOKEN"]


@pytest.mark.parametrize("values", [{}, SLACK, DISCORD, SLACK | DISCORD])
def test_the_registry_and_each_plugin_agree_on_what_is_configured(values: dict[str, str]) -> None:
    settings = Settings(**values)  # type: ignore[arg-type]
    for name in REGISTRY:
        assert CONFIGURED[name](settings) == plugin(name=name).configured(settings=settings)
