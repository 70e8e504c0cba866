"""discord.py's REST base and gateway URL are moved in one place, and a discord.py that keeps
them elsewhere fails here, loudly, before any test could reach Discord itself."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import yarl
from discord import gateway, http

from bot.config.settings import DEFAULT_DISCORD_API_URL, DEFAULT_DISCORD_GATEWAY_URL
from bot.discord import endpoints


@pytest.fixture
def restored() -> Iterator[None]:
    """Put discord.py's own URLs back after the test."""
    before = endpoints.current()
    yield
    endpoints.point_at(api_url=before[0], gateway_url=before[1])


def test_this_discord_py_keeps_its_urls_where_we_move_them() -> None:
    # If this fails after an upgrade, bot/discord/endpoints.py must learn the new places.
    assert http.Route.BASE == DEFAULT_DISCORD_API_URL
    assert str(gateway.DiscordWebSocket.DEFAULT_GATEWAY) == DEFAULT_DISCORD_GATEWAY_URL
    assert isinstance(gateway.DiscordWebSocket.DEFAULT_GATEWAY, yarl.URL)


def test_every_route_and_the_gateway_follow_the_setting(restored: None) -> None:
    endpoints.point_at(api_url="http://127.0.0.1:8123/api/v10/", gateway_url="ws://127.0.0.1:8124")
    route = http.Route("POST", "/channels/{channel_id}/messages", channel_id=42)
    assert route.url == "http://127.0.0.1:8123/api/v10/channels/42/messages"
    assert str(gateway.DiscordWebSocket.DEFAULT_GATEWAY) == "ws://127.0.0.1:8124"
    assert endpoints.current() == ("http://127.0.0.1:8123/api/v10", "ws://127.0.0.1:8124")


def test_a_moved_attribute_is_refused_not_ignored(
    restored: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delattr(http.Route, "BASE")
    with pytest.raises(endpoints.EndpointsMoved, match=r"Route\.BASE"):
        endpoints.point_at(api_url="http://127.0.0.1:1/api/v10", gateway_url="ws://127.0.0.1:2")
