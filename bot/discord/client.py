"""The discord.py client: the intents Paper Club needs, its command tree, and the events it
listens to, each handed to a thin listener."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Awaitable
from typing import Any

import discord
from discord import app_commands

from bot.discord.deps import PLATFORM, DiscordDeps
from bot.discord.errors import error_trace
from bot.discord.history import snowflake_time
from bot.discord.listeners import clicks, commands, comments, nominate, search, votes
from bot.services.telemetry import Telemetry

log = logging.getLogger("paperclub")
# discord.py's own default: after READY it waits this long for each guild's GUILD_CREATE.
GUILD_READY_SECONDS = 2.0


def intents() -> discord.Intents:
    """Guilds (channels and threads), their messages with content (MESSAGE_CONTENT is
    privileged: switched on in the developer portal) and their reactions; nothing more."""
    wanted = discord.Intents.none()
    wanted.guilds = True
    wanted.guild_messages = True
    wanted.guild_reactions = True
    wanted.message_content = True
    return wanted


class Handled:
    """How many gateway events our listeners have finished with: the signal a test (or an
    operator's debugger) waits on instead of sleeping."""

    def __init__(self) -> None:
        """None yet."""
        self._count = 0
        self._changed = threading.Condition()

    @property
    def count(self) -> int:
        """Events finished so far."""
        with self._changed:
            return self._count

    async def after(self, work: Awaitable[None]) -> None:
        """Await a listener, then count its event (whether it stored anything or not)."""
        try:
            await work
        finally:
            with self._changed:
                self._count += 1
                self._changed.notify_all()

    def wait(self, *, count: int, timeout: float) -> bool:
        """Block until `count` events are finished; False on timeout."""
        with self._changed:
            return self._changed.wait_for(lambda: self._count >= count, timeout=timeout)


class PaperClubClient(discord.Client):
    """A discord.py client that routes its events to our listeners once `attach`ed."""

    def __init__(
        self,
        *,
        telemetry: Telemetry,
        guild_ready_timeout: float = GUILD_READY_SECONDS,
    ) -> None:
        """No message cache (raw events carry what we need); mentions never notify; API
        errors and event lag are told to `telemetry` (the club's)."""
        super().__init__(
            intents=intents(),
            max_messages=None,
            allowed_mentions=discord.AllowedMentions.none(),
            guild_ready_timeout=guild_ready_timeout,
            http_trace=error_trace(telemetry=telemetry),
        )
        self._telemetry = telemetry
        self.tree = app_commands.CommandTree(self)
        self._deps: DiscordDeps | None = None
        self.ready = threading.Event()
        self.handled = Handled()

    def attach(self, *, deps: DiscordDeps) -> None:
        """Wire the listeners (before connecting): the command group and the buttons."""
        self._deps = deps
        self.tree.add_command(commands.group(deps=deps))
        self.add_dynamic_items(
            votes.vote_button(deps=deps),
            search.more_button(deps=deps),
            *clicks.click_buttons(deps=deps),
            nominate.nominate_button(deps=deps),
        )

    @property
    def deps(self) -> DiscordDeps:
        """The listeners' inputs (attach comes before any event)."""
        if self._deps is None:
            raise RuntimeError("PaperClubClient.attach() was not called")
        return self._deps

    async def setup_hook(self) -> None:
        """Register /paperclub with Discord (a bulk overwrite: the same set each start)."""
        await self.tree.sync()

    async def on_ready(self) -> None:
        """A new gateway session (IDENTIFY), the first of the process too: say where, and
        ask for recent posts to be read back, since Discord replays nothing from before a
        new session (the first one's ask is the start's: stamped when events flow again).
        A RESUME, whose missed events Discord replays, is on_resumed, which asks nothing."""
        self.ready.set()
        log.info(
            "connected to Discord as %s in %d server(s); Paper Club is running on Discord",
            self.user,
            len(self.guilds),
        )
        if self._deps is not None:
            await self._deps.bridge.blocking(self._deps.room.reconcile_soon)

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Any click or command (the tree and the buttons answer it): its lag, from its id;
        a submitted form (no tree or button answers one) is answered here."""
        self._lagged(stamped=snowflake_time(snowflake=interaction.id))
        await nominate.submitted(deps=self.deps, interaction=interaction)

    async def on_message(self, message: discord.Message) -> None:
        """A new message (a comment when it is in a daily post's thread); the lag of people's
        messages (our own posts' echoes say nothing of how late events come)."""
        if self.user is None or message.author.id != self.user.id:
            self._lagged(stamped=snowflake_time(snowflake=message.id))
        await self.handled.after(comments.created(deps=self.deps, message=message))

    async def on_raw_message_edit(self, payload: discord.RawMessageUpdateEvent) -> None:
        """An edited message, cached or not; our own (a redraw's echo) is no event to handle
        and is not counted, so a count of handled events means people's events."""
        if self.user is not None and payload.message.author.id == self.user.id:
            return
        edited = payload.message.edited_at
        if edited is not None:  # an edit's id is the message's: its lag runs from edited_at
            self._lagged(stamped=edited.timestamp())
        await self.handled.after(comments.edited(deps=self.deps, payload=payload))

    async def on_raw_message_delete(self, payload: discord.RawMessageDeleteEvent) -> None:
        """A deleted message, cached or not."""
        await self.handled.after(
            comments.deleted(
                deps=self.deps,
                guild_id=payload.guild_id,
                channel_id=payload.channel_id,
                message_ids={payload.message_id},
            )
        )

    async def on_raw_bulk_message_delete(self, payload: discord.RawBulkMessageDeleteEvent) -> None:
        """Messages deleted together (a moderator's purge)."""
        await self.handled.after(
            comments.deleted(
                deps=self.deps,
                guild_id=payload.guild_id,
                channel_id=payload.channel_id,
                message_ids=set(payload.message_ids),
            )
        )

    async def on_raw_reaction_add(self, payload: discord.RawReactionActionEvent) -> None:
        """A reaction added anywhere (a vote when it is 👍/👎 on a daily post)."""
        await self.handled.after(votes.reaction(deps=self.deps, payload=payload, added=True))

    async def on_raw_reaction_remove(self, payload: discord.RawReactionActionEvent) -> None:
        """A reaction taken back."""
        await self.handled.after(votes.reaction(deps=self.deps, payload=payload, added=False))

    async def on_error(self, event_method: str, /, *args: Any, **kwargs: Any) -> None:
        """A listener failed: log it with its traceback (discord.py's own default, named)."""
        log.exception("Discord listener %s failed", event_method)

    def _lagged(self, *, stamped: float) -> None:
        """Report how long after Discord stamped an event (a Unix time) we started on it."""
        self._telemetry.event_lag(platform=PLATFORM, seconds=time.time() - stamped)
