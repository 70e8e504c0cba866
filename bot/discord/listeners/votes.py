"""Vote buttons (a DynamicItem: they work on every post, across restarts) and reactions."""

from __future__ import annotations

from typing import Any

import discord

from bot.discord.deps import DiscordDeps
from bot.discord.embeds import read_vote
from bot.discord.listeners.buttons import Dynamic, dynamic_button
from bot.discord.listeners.replies import acknowledge
from bot.discord.render import read_custom_id
from bot.discord.text import reaction_name
from bot.services import voting

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
    """A click: the other button changes the vote, the same one again withdraws it."""
    read = read_custom_id(custom_id=custom_id)
    vote = read_vote(value=read[1]) if read else None
    if vote is not None:
        value, post_id = vote
        user, shared = str(interaction.user.id), deps.shared
        # The interaction id is unique per click: a redelivered click changes nothing.
        event_id = f"click:{interaction.id}"
        outcome = await deps.bridge.blocking(
            lambda: voting.click(
                uow=shared.uow,
                post_id=post_id,
                user=user,
                value=value,
                event_id=event_id,
                now=shared.clock.now(),
            ),
            lane=f"vote:{user}",  # one person's clicks and reactions, in the order made
        )
        if outcome.changed and outcome.post_id is not None:
            shared.refresh_post(outcome.post_id)  # only queues a coalesced redraw
    await acknowledge(interaction=interaction)  # the redraw shows the counts


async def reaction(
    *, deps: DiscordDeps, payload: discord.RawReactionActionEvent, added: bool
) -> None:
    """A 👍 or 👎 (any skin tone) on a daily post is a vote; reactions elsewhere are ignored."""
    if payload.guild_id is None or str(payload.user_id) == deps.chat.bot_id:
        return
    shared = deps.shared
    channel = deps.channel(guild_id=payload.guild_id, channel_id=payload.channel_id)
    name = reaction_name(emoji=payload.emoji)
    # Discord's reaction events carry no id: a reaction's presence stands in for one.
    outcome = await deps.bridge.blocking(
        lambda: voting.react(
            uow=shared.uow,
            channel=channel,
            message_id=str(payload.message_id),
            user=str(payload.user_id),
            reaction=name,
            added=added,
            event_id=None,
            now=shared.clock.now(),
            up=deps.up,
            down=deps.down,
            present_key=f"reaction:{payload.message_id}:{payload.user_id}:{payload.emoji}",
        ),
        lane=f"vote:{payload.user_id}",
    )
    if outcome.changed and outcome.post_id is not None:
        shared.refresh_post(outcome.post_id)
