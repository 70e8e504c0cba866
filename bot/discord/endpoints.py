"""Where discord.py sends its REST calls and opens its gateway: Discord's own, or a local fake.

discord.py has no public setting for either, so this module moves the two class attributes
it reads (`discord.http.Route.BASE`, `discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`), and
refuses loudly when a new discord.py no longer has them, rather than silently reaching
Discord itself from a test. tests/discord/test_endpoints.py pins both.
"""

from __future__ import annotations

import yarl
from discord import gateway, http


class EndpointsMoved(RuntimeError):
    """discord.py no longer keeps its URLs where this module moves them."""


def point_at(*, api_url: str, gateway_url: str) -> None:
    """Send every REST call to `api_url` (…/api/v10) and connect the gateway to `gateway_url`."""
    if not isinstance(getattr(http.Route, "BASE", None), str):
        raise EndpointsMoved("discord.http.Route.BASE is gone: find where discord.py keeps it")
    if not isinstance(getattr(gateway.DiscordWebSocket, "DEFAULT_GATEWAY", None), yarl.URL):
        raise EndpointsMoved(
            "discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY is gone: find its new place"
        )
    http.Route.BASE = api_url.rstrip("/")
    gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


def current() -> tuple[str, str]:
    """The REST base and gateway URL discord.py uses now."""
    return http.Route.BASE, str(gateway.DiscordWebSocket.DEFAULT_GATEWAY)
