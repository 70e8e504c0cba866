"""/paperclub: an application command group declared from the command table, so it has every
subcommand the Slack command and the console have."""

from __future__ import annotations

import inspect
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Literal, cast

import discord
from discord import app_commands

from bot.discord.deps import DiscordDeps
from bot.discord.listeners.replies import acknowledge, follow_up
from bot.services import commands
from bot.services.reply import Reply
from bot.wording import commands as command_words
from bot.wording import replies

log = logging.getLogger(__name__)

NAME = "paperclub"
# Runs a subcommand given its name and its option values (None for an option left out).
Run = Callable[..., Awaitable[None]]


async def answer(*, deps: DiscordDeps, interaction: discord.Interaction[Any], text: str) -> None:
    """Defer at once (Discord wants an answer in 3 s), run the subcommand on a worker thread,
    then follow up with the reply, which only the person who asked sees."""
    if not await acknowledge(interaction=interaction, ephemeral=True, thinking=True):
        return
    if interaction.guild_id is None or interaction.channel_id is None:
        await follow_up(deps=deps, interaction=interaction, message=replies.SERVER_ONLY)
        return
    room, user = deps.room, str(interaction.user.id)
    channel = deps.channel(guild_id=interaction.guild_id, channel_id=interaction.channel_id)

    def run() -> Reply:
        """The command (the club rebuilds the scheduler when a schedule changed)."""
        return room.command(channel=channel, user=user, text=text)

    try:
        reply = await deps.bridge.blocking(run)
    except Exception:  # the person gets an answer; the log gets the traceback
        log.exception("/paperclub %s failed", text.split(" ", 1)[0])
        reply = Reply(message=replies.FAILED)
    await follow_up(deps=deps, interaction=interaction, message=reply.message)


def _text(*words: str | None) -> str:
    """The subcommand line the shared router reads: words without the empty ones."""
    return " ".join(w.strip() for w in words if w and w.strip())


def group(*, deps: DiscordDeps) -> app_commands.Group:
    """The /paperclub group; every subcommand goes through the same router as Slack's and the
    console's."""

    async def run(interaction: discord.Interaction[Any], *words: str | None) -> None:
        """Answer one subcommand, typed as the words of a Slack command."""
        await answer(deps=deps, interaction=interaction, text=_text(*words))

    return declare(table=commands.TABLE, run=run)


def declare(*, table: Sequence[commands.Subcommand], run: Run) -> app_commands.Group:
    """The /paperclub group with one subcommand per entry of the command table, options from
    its arguments; only usable in a server."""
    paperclub = app_commands.Group(
        name=NAME, description=command_words.GROUP_ABOUT, guild_only=True
    )
    for entry in table:
        paperclub.add_command(_subcommand(entry=entry, run=run))
    return paperclub


def _subcommand(*, entry: commands.Subcommand, run: Run) -> app_commands.Command[Any, Any, None]:
    """One subcommand. discord.py reads options from the callback's signature, so the callback
    takes them as keywords and carries a signature made from the entry's arguments: a string
    (or one of the choices), required or else None when left out."""

    async def callback(interaction: discord.Interaction[Any], /, **values: str | None) -> None:
        """/paperclub <name> [options], in the table's order of arguments."""
        await run(interaction, entry.name, *(values.get(a.name) for a in entry.arguments))

    interaction = inspect.Parameter(
        "interaction", inspect.Parameter.POSITIONAL_ONLY, annotation=discord.Interaction
    )
    options = [
        inspect.Parameter(
            argument.name,
            inspect.Parameter.KEYWORD_ONLY,
            annotation=cast(Any, Literal)[argument.choices] if argument.choices else str,
            default=inspect.Parameter.empty if argument.required else None,
        )
        for argument in entry.arguments
    ]
    callback.__signature__ = inspect.Signature([interaction, *options])  # type: ignore[attr-defined]
    if entry.arguments:
        app_commands.describe(**{a.name: a.about for a in entry.arguments})(callback)
    return app_commands.Command(name=entry.name, description=entry.about, callback=callback)
