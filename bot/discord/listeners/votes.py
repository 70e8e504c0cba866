"""Vote buttons (a DynamicItem: they work on every post, across restarts) and reactions."""

from __future__ import annotations

from typing import Any

import discord

from bot.discord.deps import DiscordDeps
from bot.discord.embeds import read_vote
from bot.discord.listeners.buttons import Dynamic, dynamic_button
from bot.discord.listeners.outage import lost
from bot.discord.listeners.replies import acknowledge, tell
from bot.discord.render import read_custom_id
from bot.discord.text import reaction_name
from bot.ports import ArchiveUnavailable

TEMPLATE = r"paperclub:vote:(?:up|down):[0-9]{1,19}"


def vote_button(*, deps: DiscordDeps) -> Dynamic:
    """The DynamicItem that takes a click on any daily post's 👍 or 👎."""

    async def on_click(interaction: discord.Interaction[Any], custom_id: str) -> None:
        """The click, with the listeners' inputs."""
        await click(deps=deps, interaction=interaction, custom_id=custom_id)

    return dynamic_button(template=TEMPLATE, on_click=on_click)


async def click(
    *, deps: DiscordDeps, interaction: discord.Interaction[Any], custom_id: str
) -> None:
    """A click: the other button changes the vote, the same one again withdraws it. One that
    stored nothing (the archive unavailable, a button of another channel) is answered with a
    message only the clicker sees; otherwise the redraw shows the counts."""
    read = read_custom_id(custom_id=custom_id)
    vote = read_vote(value=read[1]) if read else None
    answer = None
    if vote is not None:
        value, post_id = vote
        user, token, room = str(interaction.user.id), str(interaction.id), deps.room
        # Where Discord says it was clicked: the custom id is the clicker's to write.
        channel = deps.channel(
            guild_id=interaction.guild_id or "", channel_id=interaction.channel_id or ""
        )
        # The interaction id is unique per click: a redelivered click changes nothing.
        outcome = await deps.bridge.blocking(
            lambda: room.click(
                channel=channel, post_id=post_id, user=user, value=value, token=token
            ),
            lane=f"vote:{user}",  # one person's clicks and reactions, in the order made
        )
        answer = outcome.answer
    if answer is None:
        await acknowledge(interaction=interaction)
    else:
        await tell(interaction=interaction, message=answer)


async def reaction(
    *, deps: DiscordDeps, payload: discord.RawReactionActionEvent, added: bool
) -> None:
    """A 👍 or 👎 (any skin tone) on a daily post is a vote; reactions elsewhere are ignored."""
    if payload.guild_id is None or str(payload.user_id) == deps.chat.bot_id:
        return
    room = deps.room
    channel = deps.channel(guild_id=payload.guild_id, channel_id=payload.channel_id)
    name = reaction_name(emoji=payload.emoji)
    # Discord's reaction events carry no id: the club keys them by the reaction's presence.
    try:
        await deps.bridge.blocking(
            lambda: room.react(
                channel=channel,
                message_id=str(payload.message_id),
                user=str(payload.user_id),
                reaction=name,
                added=added,
                emoji=str(payload.emoji),
            ),
            lane=f"vote:{payload.user_id}",
        )
    except ArchiveUnavailable:
        # Discord delivers a gateway event once: the ids say what to read back later.
        lost(
            what="reaction added" if added else "reaction removed",
            channel=channel,
            message_id=payload.message_id,
            user=payload.user_id,
        )
