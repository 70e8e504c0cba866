"""What the Discord listeners need: the shared services, the Chat and poster, the bridge,
the button keys and the reactions that vote."""

from __future__ import annotations

from dataclasses import dataclass

from bot.discord.bridge import Bridge
from bot.discord.chat import DiscordChat
from bot.discord.keys import ButtonKeys
from bot.domain import ChannelKey
from bot.services.posting import Poster
from bot.services.shared import Shared

PLATFORM = "discord"
UP, DOWN = "👍", "👎"


@dataclass(frozen=True, slots=True)
class DiscordDeps:
    """The listeners' inputs."""

    shared: Shared
    chat: DiscordChat
    poster: Poster
    bridge: Bridge
    keys: ButtonKeys

    @property
    def up(self) -> frozenset[str]:
        """👍, and custom emoji named like the up reactions of the settings (thumbsup)."""
        return self.shared.up_reactions | {UP}

    @property
    def down(self) -> frozenset[str]:
        """👎, and custom emoji named like the down reactions of the settings."""
        return self.shared.down_reactions | {DOWN}

    def channel(self, *, guild_id: int | str, channel_id: int | str) -> ChannelKey:
        """The key of a channel (or thread) of a guild."""
        return channel_key(guild_id=guild_id, channel_id=channel_id)


def channel_key(*, guild_id: int | str, channel_id: int | str) -> ChannelKey:
    """The key of a Discord channel: its guild is the workspace."""
    return ChannelKey(platform=PLATFORM, workspace=str(guild_id), channel=str(channel_id))
