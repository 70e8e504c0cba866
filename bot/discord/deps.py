"""What the Discord listeners need: the club's Room on this Chat, the Chat, the bridge and the
button keys."""

from __future__ import annotations

from dataclasses import dataclass

from bot.discord.bridge import Bridge
from bot.discord.chat import DiscordChat
from bot.discord.keys import ButtonKeys
from bot.domain import ChannelKey
from bot.services.posting import Poster
from bot.services.room import Room

PLATFORM = "discord"
# Besides the reactions the settings name (custom emoji named thumbsup, say): Discord's own.
UP, DOWN = frozenset({"👍"}), frozenset({"👎"})


@dataclass(frozen=True, slots=True)
class DiscordDeps:
    """The listeners' inputs."""

    room: Room
    chat: DiscordChat
    bridge: Bridge
    keys: ButtonKeys

    @property
    def poster(self) -> Poster:
        """Discord's poster."""
        return self.room.poster

    def channel(self, *, guild_id: int | str, channel_id: int | str) -> ChannelKey:
        """The key of a channel (or thread) of a guild."""
        return channel_key(guild_id=guild_id, channel_id=channel_id)


def channel_key(*, guild_id: int | str, channel_id: int | str) -> ChannelKey:
    """The key of a Discord channel: its guild is the workspace."""
    return ChannelKey(platform=PLATFORM, workspace=str(guild_id), channel=str(channel_id))
