"""The suggestions tray's buttons (Add to queue, Not for us): a DynamicItem per action, so a
click works on any tray, across restarts. Deferred at once, decided through Room.clicks.tray on
a worker thread as the channel Discord names (never one the custom id could name), the tray
redrawn in place (the component's message), and the answer sent to the clicker alone."""

from __future__ import annotations

from typing import Any

import discord

from bot.discord.deps import DiscordDeps
from bot.discord.listeners.buttons import Dynamic, dynamic_button
from bot.discord.listeners.replies import acknowledge, follow_up, replace
from bot.discord.render import read_custom_id
from bot.wording.suggestions import ADD, HIDE, no_such


def tray_buttons(*, deps: DiscordDeps) -> tuple[Dynamic, ...]:
    """The DynamicItems that take a click on any tray's Add to queue and Not for us."""

    async def on_click(interaction: discord.Interaction[Any], custom_id: str) -> None:
        """The click, with the listeners' inputs."""
        await decide(deps=deps, interaction=interaction, custom_id=custom_id)

    # Any value: the core answers one that is no suggestion of the channel.
    return tuple(
        dynamic_button(template=rf"paperclub:{action}:.+", on_click=on_click)
        for action in (ADD, HIDE)
    )


async def decide(
    *, deps: DiscordDeps, interaction: discord.Interaction[Any], custom_id: str
) -> None:
    """Defer (the message stays as it is until edited), decide, redraw, answer."""
    if not await acknowledge(interaction=interaction):
        return
    read = read_custom_id(custom_id=custom_id)
    if read is None or interaction.guild_id is None or interaction.channel_id is None:
        number = read[1] if read else ""
        await follow_up(deps=deps, interaction=interaction, message=no_such(number=number))
        return
    action, carried = read
    # A key this process forgot reads as no number: the core says there is no such suggestion.
    number = deps.keys.value(carried=carried) or ""
    channel = deps.channel(guild_id=interaction.guild_id, channel_id=interaction.channel_id)
    user, room = str(interaction.user.id), deps.room
    answer = await deps.bridge.blocking(
        lambda: room.clicks.tray(channel=channel, user=user, action=action, value=number)
    )
    if answer.redrawn is not None:
        await replace(deps=deps, interaction=interaction, message=answer.redrawn)
    await follow_up(deps=deps, interaction=interaction, message=answer.reply.message)
