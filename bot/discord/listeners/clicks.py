"""Buttons on messages the bot keeps up to date: the suggestions tray's (Add to queue, Not for us),
a session reminder's RSVPs (Going, Maybe, Not going), a poll's and the rating after a session.
A DynamicItem per action, so a click works on any such message, across restarts. Deferred at
once, decided through Room.clicks on a worker thread as the channel Discord names (never one the
custom id could name), the message redrawn in place (the component's message), and the answer
sent to the clicker alone."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord

from bot.discord.deps import DiscordDeps
from bot.discord.listeners.buttons import Dynamic, dynamic_button
from bot.discord.listeners.replies import acknowledge, follow_up, replace
from bot.discord.render import read_custom_id
from bot.domain import ChannelKey
from bot.services.reply import ClickAnswer
from bot.wording import replies
from bot.wording.meetings import RSVP_ACTIONS
from bot.wording.polls import CLEAR, RESULTS, VOTE
from bot.wording.presenters import ACCEPT, DECLINE
from bot.wording.ratings import RATE_ACTIONS
from bot.wording.suggestions import ADD, HIDE

# What a click decides: (channel, user, action, value) -> the answer and the redrawn message.
Click = Callable[[ChannelKey, str, str, str], ClickAnswer]


def click_buttons(*, deps: DiscordDeps) -> tuple[Dynamic, ...]:
    """The DynamicItems that take a click on any tray's or reminder's buttons."""
    clicks = deps.room.clicks

    def tray(channel: ChannelKey, user: str, action: str, value: str) -> ClickAnswer:
        return clicks.tray(channel=channel, user=user, action=action, value=value)

    def rsvp(channel: ChannelKey, user: str, action: str, value: str) -> ClickAnswer:
        return clicks.rsvp(channel=channel, user=user, action=action, value=value)

    def vote(channel: ChannelKey, user: str, action: str, value: str) -> ClickAnswer:
        return clicks.vote(channel=channel, user=user, action=action, value=value)

    def swap(channel: ChannelKey, user: str, action: str, value: str) -> ClickAnswer:
        return clicks.swap(channel=channel, user=user, action=action, value=value)

    def rate(channel: ChannelKey, user: str, action: str, value: str) -> ClickAnswer:
        return clicks.rate(channel=channel, user=user, action=action, value=value)

    deciders: dict[str, Click] = {ADD: tray, HIDE: tray}
    deciders.update(dict.fromkeys(RSVP_ACTIONS, rsvp))
    deciders.update(dict.fromkeys((VOTE, CLEAR, RESULTS), vote))
    deciders.update(dict.fromkeys((ACCEPT, DECLINE), swap))
    deciders.update(dict.fromkeys(RATE_ACTIONS, rate))

    def on_click_of(click: Click) -> Callable[[discord.Interaction[Any], str], Any]:
        async def on_click(interaction: discord.Interaction[Any], custom_id: str) -> None:
            """The click, with the listeners' inputs."""
            await decide(deps=deps, interaction=interaction, custom_id=custom_id, click=click)

        return on_click

    # Any value: the core answers one that names nothing of the channel.
    return tuple(
        dynamic_button(template=rf"paperclub:{action}:.+", on_click=on_click_of(click))
        for action, click in deciders.items()
    )


async def decide(
    *, deps: DiscordDeps, interaction: discord.Interaction[Any], custom_id: str, click: Click
) -> None:
    """Defer (the message stays as it is until edited), decide, redraw, answer."""
    if not await acknowledge(interaction=interaction):
        return
    read = read_custom_id(custom_id=custom_id)
    if read is None or interaction.guild_id is None or interaction.channel_id is None:
        await follow_up(deps=deps, interaction=interaction, message=replies.UNKNOWN_BUTTON)
        return
    action, carried = read
    # A key this process forgot reads as no value: the core says it names nothing.
    value = deps.keys.value(carried=carried) or ""
    channel = deps.channel(guild_id=interaction.guild_id, channel_id=interaction.channel_id)
    user = str(interaction.user.id)
    answer = await deps.bridge.blocking(lambda: click(channel, user, action, value))
    if answer.redrawn is not None:
        await replace(deps=deps, interaction=interaction, message=answer.redrawn)
    await follow_up(deps=deps, interaction=interaction, message=answer.reply.message)
