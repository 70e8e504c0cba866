"""Vote buttons (a DynamicItem: they work on every post, across restarts) and reactions."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.discord.deps import DiscordDeps
from bot.discord.embeds import read_vote
from bot.discord.listeners.replies import acknowledge
from bot.discord.render import read_custom_id
from bot.discord.text import reaction_name
from bot.services import voting

TEMPLATE = r"paperclub:vote:(?:up|down):[0-9]{1,19}"


def vote_button(*, deps: DiscordDeps) -> type[discord.ui.DynamicItem[discord.ui.Button[Any]]]:
    """The DynamicItem that takes a click on any daily post's 👍 or 👎."""

    class VoteButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
        """A vote button; its custom id carries the way and the post id."""

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
        ) -> VoteButton:
            """discord.py's factory for a click on a matching custom id."""
            return cls(custom_id=match.group(0))

        async def callback(self, interaction: discord.Interaction[Any]) -> None:
            """Store the vote, then acknowledge the click."""
            await click(deps=deps, interaction=interaction, custom_id=self.custom_id)

    return VoteButton


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
