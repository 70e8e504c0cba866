"""Discord's settings: the bot token, where its REST API and gateway are, and the channel that
follows the list from the start. Read by bot.config.settings from the values it gathered."""

from __future__ import annotations

import re
from collections.abc import Callable

DEFAULT_DISCORD_API_URL = "https://discord.com/api/v10"
# discord.py's own; bot/discord/endpoints.py moves both, and a test pins them.
DEFAULT_DISCORD_GATEWAY_URL = "wss://gateway.discord.gg/"
DISCORD_VARIABLES: dict[str, str] = {
    "DISCORD_TOKEN": "Bot token from the developer portal. Set: the bot runs on Discord too.",
    "DISCORD_API_URL": f"REST API base URL (default {DEFAULT_DISCORD_API_URL}).",
    "DISCORD_GATEWAY_URL": f"Gateway URL (default {DEFAULT_DISCORD_GATEWAY_URL}).",
    "DISCORD_CHANNEL": "Discord channel id that follows the reading list from the start.",
}
_GetFn = Callable[[str], "str | None"]
_SNOWFLAKE = re.compile(r"^[1-9][0-9]{15,19}$")


def discord_variables(*, get: _GetFn, error: type[ValueError]) -> dict[str, str | None]:
    """The DISCORD_* variables, checked: a token without spaces, http(s) and ws(s) URLs, a
    channel snowflake."""
    token, api, gateway, channel = (
        get(f"DISCORD_{name}") for name in ("TOKEN", "API_URL", "GATEWAY_URL", "CHANNEL")
    )
    if token and any(c.isspace() for c in token):
        raise error("DISCORD_TOKEN should be the bare bot token (no 'Bot ' before it).")
    if api and not re.match(r"^https?://[^\s/]+", api):
        raise error(f"DISCORD_API_URL must be an http(s) URL, got {api!r}.")
    if gateway and not re.match(r"^wss?://[^\s/]+", gateway):
        raise error(f"DISCORD_GATEWAY_URL must be a ws(s) URL, got {gateway!r}.")
    if channel and not _SNOWFLAKE.match(channel):
        raise error(
            f"DISCORD_CHANNEL must be a channel id like 1100000000000000200, got {channel!r} "
            "(in Discord: Developer Mode on, then right-click the channel, Copy Channel ID)."
        )
    return {
        "DISCORD_TOKEN": token,
        "DISCORD_API_URL": api.rstrip("/") if api else None,
        "DISCORD_GATEWAY_URL": gateway,
        "DISCORD_CHANNEL": channel,
    }
