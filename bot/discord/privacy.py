"""Whether a Discord channel is private: DMs, private threads and channels @everyone cannot
see; a public thread is as private as its channel. When Discord cannot say, it is taken as
private: nothing leaks by default."""

from __future__ import annotations

import logging
from typing import Any, Protocol

from bot.domain import ChannelKey
from bot.ports import ChatError

log = logging.getLogger(__name__)

VIEW_CHANNEL = 1 << 10
PRIVATE_TYPES = {1, 3, 12}  # a DM, a group DM, a private thread
THREAD_TYPES = {10, 11, 12}


class ChannelReader(Protocol):
    """Reads a channel's payload (DiscordChat.channel_info)."""

    def channel_info(self, *, channel_id: str) -> dict[str, Any]:
        """A channel's or thread's payload (its type, guild, parent and overwrites)."""
        ...


def is_private(*, chat: ChannelReader, channel: ChannelKey) -> bool:
    """DMs, private threads and channels @everyone cannot see; True when Discord cannot say."""
    try:
        data = chat.channel_info(channel_id=channel.channel)
        if int(data.get("type", 0)) in THREAD_TYPES - PRIVATE_TYPES and data.get("parent_id"):
            data = chat.channel_info(channel_id=str(data["parent_id"]))
    except ChatError as exc:
        log.warning("could not tell whether %s is private (%s)", channel, exc)
        return True
    if int(data.get("type", 0)) in PRIVATE_TYPES:
        return True
    everyone = str(data.get("guild_id") or channel.workspace)
    for overwrite in data.get("permission_overwrites") or []:
        if str(overwrite.get("id")) == everyone and int(overwrite.get("deny", 0)) & VIEW_CHANNEL:
            return True
    return False
