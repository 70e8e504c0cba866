"""Names for the web archive: from discord.py's guild cache, else one REST call each."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any, Protocol

import discord

from bot.discord.bridge import Bridge, BridgeClosed
from bot.discord.errors import FAILURES
from bot.domain import ChannelKey
from bot.ports import ChatError
from bot.ports.platform import ChannelNames

log = logging.getLogger(__name__)


class Asks(Protocol):
    """What of bot.discord.chat.DiscordChat the names need (named here: no import circle)."""

    client: discord.Client
    bridge: Bridge

    def channel_info(self, *, channel_id: str) -> dict[str, Any]:
        """A channel's payload (GET /channels/{id})."""
        ...

    def display_name(self, *, user: str) -> str:
        """A user's display name (GET /users/{id}, cached); the id when Discord cannot say."""
        ...


async def cached_names(
    *, client: discord.Client, channel: ChannelKey, people: Sequence[str]
) -> tuple[str | None, dict[str, str]]:
    """The channel's (or thread's) name and members' server nicknames or display names, as
    far as the cache knows them; runs on the Discord loop, which owns the cache."""
    found = client.get_channel(int(channel.channel)) if channel.channel.isdigit() else None
    name = getattr(found, "name", None)
    guild = client.get_guild(int(channel.workspace)) if channel.workspace.isdigit() else None
    named: dict[str, str] = {}
    for user in people:
        member = guild.get_member(int(user)) if guild is not None and user.isdigit() else None
        if member is not None:
            named[user] = member.display_name
    return (str(name) if name else None), named


def names_of(*, chat: Asks, channel: ChannelKey, people: Sequence[str]) -> ChannelNames:
    """The cache's names, then GET /channels/{id} for a channel it lacks and GET /users/{id}
    (the chat's hour-long cache) for people it lacks; whoever cannot be named is left out."""
    try:
        asked = cached_names(client=chat.client, channel=channel, people=people)
        name, named = chat.bridge.call(asked)
        if name is None:
            name = str(chat.channel_info(channel_id=channel.channel).get("name") or "") or None
    except (*FAILURES, BridgeClosed, ChatError) as exc:
        log.warning("no names for %s: %s", channel, exc)
        return ChannelNames(channel=None, people={})
    for user in people:
        if user in named or not user.isdigit():
            continue
        shown = chat.display_name(user=user)
        if shown != user:
            named[user] = shown
    return ChannelNames(channel=name, people=named)
