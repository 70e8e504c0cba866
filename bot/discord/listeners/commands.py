"""/paperclub: an application command group with every subcommand the Slack command has."""

from __future__ import annotations

import logging
from typing import Any, Literal

import discord
from discord import app_commands

from bot.discord.deps import DiscordDeps
from bot.discord.listeners.replies import acknowledge, follow_up
from bot.services.reply import Reply
from bot.wording import replies

log = logging.getLogger(__name__)

NAME = "paperclub"


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
    """The /paperclub group and its subcommands; only usable in a server."""
    paperclub = app_commands.Group(
        name=NAME,
        description="Paper Club: the daily paper, its votes and discussions",
        guild_only=True,
    )

    async def run(interaction: discord.Interaction[Any], *words: str | None) -> None:
        """Every subcommand goes through the same router as Slack's and the console's."""
        await answer(deps=deps, interaction=interaction, text=_text(*words))

    @paperclub.command(name="search", description="Search papers and what the group said")
    @app_commands.describe(query='Words, "phrases", -excluded, author:Name, after:2026-01-31')
    async def search(interaction: discord.Interaction[Any], query: str) -> None:
        """/paperclub search."""
        await run(interaction, "search", query)

    @paperclub.command(name="add", description="Put a paper at the end of this channel's queue")
    @app_commands.describe(paper="An arXiv id or URL, a DOI, a URL or a title")
    async def add(interaction: discord.Interaction[Any], paper: str) -> None:
        """/paperclub add."""
        await run(interaction, "add", paper)

    @paperclub.command(name="related", description="Papers the group read closest to this one")
    @app_commands.describe(paper="An arXiv id, a DOI or a title")
    async def related(interaction: discord.Interaction[Any], paper: str) -> None:
        """/paperclub related."""
        await run(interaction, "related", paper)

    @paperclub.command(name="order", description="Admins: post in queue order, or by taste")
    @app_commands.describe(how="queue: list order; taste: what the group liked")
    async def order(interaction: discord.Interaction[Any], how: Literal["queue", "taste"]) -> None:
        """/paperclub order."""
        await run(interaction, "order", how)

    @paperclub.command(name="top", description="The most voted and discussed papers")
    @app_commands.describe(period="Which period (default month)")
    async def top(
        interaction: discord.Interaction[Any],
        period: Literal["week", "month", "year", "all"] = "month",
    ) -> None:
        """/paperclub top."""
        await run(interaction, "top", period)

    @paperclub.command(name="schedule", description="Admins: follow this channel, or change when")
    @app_commands.describe(when="HH:MM [Area/City] [mon-fri|daily|mon,wed,fri]")
    async def schedule(interaction: discord.Interaction[Any], when: str | None = None) -> None:
        """/paperclub schedule."""
        await run(interaction, "schedule", when)

    @paperclub.command(
        name="recap", description="Admins: a weekly recap, e.g. 'fri 16:00' or 'off'"
    )
    @app_commands.describe(when="A weekday and time, like fri 16:00, or off")
    async def recap(interaction: discord.Interaction[Any], when: str | None = None) -> None:
        """/paperclub recap."""
        await run(interaction, "recap", when)

    plain = {
        "help": "What Paper Club can do",
        "queue": "The next papers in this channel",
        "pause": "Admins: stop the daily post here",
        "resume": "Admins: restart the daily post here",
        "skip": "Admins: drop the next paper from the queue",
        "next": "Admins: post today's paper now",
    }
    for name, description in plain.items():
        paperclub.add_command(_plain(name=name, description=description, run=run))
    return paperclub


def _plain(*, name: str, description: str, run: Any) -> app_commands.Command[Any, Any, None]:
    """A subcommand without options."""

    async def callback(interaction: discord.Interaction[Any]) -> None:
        """/paperclub <name>."""
        await run(interaction, name)

    return app_commands.Command(name=name, description=description, callback=callback)
