"""The 'More results' button under search results: the next page replaces the current one."""

from __future__ import annotations

from typing import Any

import discord

from bot.discord.deps import DiscordDeps
from bot.discord.listeners.buttons import Dynamic, dynamic_button
from bot.discord.listeners.replies import acknowledge, follow_up, replace
from bot.discord.render import read_custom_id
from bot.ports import ArchiveUnavailable
from bot.wording import archive, replies

# 'Did you mean' carries the same value (the corrected query's first page): one listener.
TEMPLATE = rf"paperclub:(?:{archive.SEARCH_MORE}|{archive.SEARCH_SPELLED}):.+"


def more_button(*, deps: DiscordDeps) -> Dynamic:
    """The DynamicItem that takes a click on any search page's 'More results'."""

    async def on_click(interaction: discord.Interaction[Any], custom_id: str) -> None:
        """The click, with the listeners' inputs."""
        await more(deps=deps, interaction=interaction, custom_id=custom_id)

    return dynamic_button(template=TEMPLATE, on_click=on_click)


async def more(*, deps: DiscordDeps, interaction: discord.Interaction[Any], custom_id: str) -> None:
    """Defer, search on a worker thread, then show the next page in place of this one (or,
    the archive unavailable, say so to the clicker alone and leave this page as it is)."""
    if not await acknowledge(interaction=interaction):
        return
    read = read_custom_id(custom_id=custom_id)
    value = deps.keys.value(carried=read[1]) if read else None
    if value is None or interaction.guild_id is None or interaction.channel_id is None:
        await replace(deps=deps, interaction=interaction, message=archive.STALE_BUTTON)
        return
    viewer = deps.channel(guild_id=interaction.guild_id, channel_id=interaction.channel_id)
    room = deps.room
    try:
        reply = await deps.bridge.blocking(lambda: room.more_results(value=value, viewer=viewer))
    except ArchiveUnavailable:  # logged where it was raised (bot/db); this page stays
        await follow_up(deps=deps, interaction=interaction, message=replies.NOT_AVAILABLE)
        return
    message = archive.STALE_BUTTON if reply is None else reply.message
    await replace(deps=deps, interaction=interaction, message=message)
