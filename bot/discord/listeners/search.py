"""The 'More results' button under search results: the next page replaces the current one."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.discord.deps import DiscordDeps
from bot.discord.listeners.replies import acknowledge, replace
from bot.discord.render import read_custom_id
from bot.services import commands
from bot.wording import archive

TEMPLATE = rf"paperclub:{archive.SEARCH_MORE}:.+"


def more_button(*, deps: DiscordDeps) -> type[discord.ui.DynamicItem[discord.ui.Button[Any]]]:
    """The DynamicItem that takes a click on any search page's 'More results'."""

    class MoreButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
        """A 'More results' button; its custom id carries the query and offset (or a key)."""

        def __init__(self, *, custom_id: str) -> None:
            """Rebuilt from the clicked button's custom id."""
            super().__init__(discord.ui.Button(custom_id=custom_id))

        @classmethod
        async def from_custom_id(
            cls,
            interaction: discord.Interaction[Any],
            item: discord.ui.Item[Any],
            match: re.Match[str],
            /,
        ) -> MoreButton:
            """discord.py's factory for a click on a matching custom id."""
            return cls(custom_id=match.group(0))

        async def callback(self, interaction: discord.Interaction[Any]) -> None:
            """Run the same search from the button's offset, as this channel sees it."""
            await more(deps=deps, interaction=interaction, custom_id=self.custom_id)

    return MoreButton


async def more(*, deps: DiscordDeps, interaction: discord.Interaction[Any], custom_id: str) -> None:
    """Defer, search on a worker thread, then show the next page in place of this one."""
    if not await acknowledge(interaction=interaction):
        return
    read = read_custom_id(custom_id=custom_id)
    value = deps.keys.value(carried=read[1]) if read else None
    if value is None or interaction.guild_id is None or interaction.channel_id is None:
        await replace(deps=deps, interaction=interaction, message=archive.STALE_BUTTON)
        return
    viewer = deps.channel(guild_id=interaction.guild_id, channel_id=interaction.channel_id)
    uow = deps.shared.uow
    reply = await deps.bridge.blocking(
        lambda: commands.more_results(uow=uow, value=value, viewer=viewer)
    )
    message = archive.STALE_BUTTON if reply is None else reply.message
    await replace(deps=deps, interaction=interaction, message=message)
