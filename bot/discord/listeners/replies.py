"""Answering an interaction with a neutral message: content, buttons, nobody notified."""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.discord import render
from bot.discord.deps import DiscordDeps
from bot.discord.views import view_of
from bot.messages import Message

NOBODY = discord.AllowedMentions.none()
ALREADY_ACKNOWLEDGED = 40060  # "Interaction has already been acknowledged."
log = logging.getLogger(__name__)


async def acknowledge(
    *, interaction: discord.Interaction[Any], ephemeral: bool = False, thinking: bool = False
) -> bool:
    """Defer an interaction; False when Discord says it was acknowledged already (the same
    interaction delivered twice): the caller stops there, and it is no failure."""
    try:
        await interaction.response.defer(ephemeral=ephemeral, thinking=thinking)
    except discord.HTTPException as exc:
        if exc.code != ALREADY_ACKNOWLEDGED:
            raise
        log.info("interaction %s came twice; it was answered the first time", interaction.id)
        return False
    return True


async def tell(*, interaction: discord.Interaction[Any], message: Message) -> None:
    """Answer an interaction at once with a message only its person sees (a click that stored
    nothing); nothing when Discord says it was answered already (delivered twice)."""
    try:
        await interaction.response.send_message(
            content=render.render(message=message), ephemeral=True, allowed_mentions=NOBODY
        )
    except discord.HTTPException as exc:
        if exc.code != ALREADY_ACKNOWLEDGED:
            raise
        log.info("interaction %s came twice; it was answered the first time", interaction.id)


async def follow_up(
    *, deps: DiscordDeps, interaction: discord.Interaction[Any], message: Message
) -> None:
    """The answer to a deferred command: ephemeral, only the person who asked sees it."""
    content = render.render(message=message)
    view = view_of(rows=render.components(message=message, key=deps.keys.key))
    if view is None:
        await interaction.followup.send(content=content, ephemeral=True, allowed_mentions=NOBODY)
    else:
        await interaction.followup.send(
            content=content, view=view, ephemeral=True, allowed_mentions=NOBODY
        )


async def replace(
    *, deps: DiscordDeps, interaction: discord.Interaction[Any], message: Message
) -> None:
    """The deferred answer to a button: the message it was on shows this one instead."""
    content = render.render(message=message)
    view = view_of(rows=render.components(message=message, key=deps.keys.key))
    await interaction.edit_original_response(content=content, view=view, allowed_mentions=NOBODY)
