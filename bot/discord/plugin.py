"""Discord as a platform plug-in: a discord.py client on its own loop (the bridge), on the
shared archive, scheduler and redraw coalescer."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from threading import Event

import discord

from bot.config.settings import Settings
from bot.discord import render
from bot.discord.bridge import Bridge
from bot.discord.chat import DiscordChat
from bot.discord.client import GUILD_READY_SECONDS, PaperClubClient
from bot.discord.deps import DOWN, PLATFORM, UP, DiscordDeps, channel_key
from bot.discord.endpoints import point_at
from bot.discord.errors import FAILURES, chat_error
from bot.discord.keys import ButtonKeys
from bot.messages import Message
from bot.ports import ChatError, PlatformStartError, wait_for_stop
from bot.services.club import Club
from bot.services.telemetry import Telemetry

log = logging.getLogger("paperclub")
NAME = PLATFORM
CLOSE_SECONDS = 10.0

# What an operator must do when the gateway refuses us for good.
FATAL_HINTS: dict[type[BaseException], str] = {
    discord.PrivilegedIntentsRequired: (
        "switch on the Message Content intent: developer portal -> your app -> Bot -> "
        "Privileged Gateway Intents"
    ),
    discord.LoginFailure: "DISCORD_TOKEN was refused: copy it again from the developer portal",
}


def configured(*, settings: Settings) -> bool:
    """A bot token is all Discord needs."""
    return settings.discord_configured


def missing(*, settings: Settings, mode: str) -> list[str]:
    """DISCORD_TOKEN, when it is not set."""
    return [] if settings.discord_token else ["DISCORD_TOKEN"]


@dataclass
class DiscordPlatform:
    """The wired Discord edge: the client, its Chat and the loop they run on."""

    client: PaperClubClient
    chat: DiscordChat
    bridge: Bridge
    connection: Future[None] | None = field(default=None)

    @property
    def name(self) -> str:
        """Channel keys say "discord"."""
        return NAME

    def render(self, *, message: Message) -> str:
        """The message as Discord markdown."""
        return render.render(message=message)

    def serve(self, *, stop: Event) -> None:
        """Connect to the gateway (reconnecting and resuming on its own) until `stop` is set;
        a refusal for good (a bad token, an intent not switched on) stops the bot, with what
        to do in the log. The client stays open until close(): the post in flight and the
        last redraws, which the wiring finishes after serve returns, still need it."""
        self.connect(on_end=stop.set)
        wait_for_stop(stop=stop)

    def connect(self, *, on_end: Callable[[], None] | None = None) -> None:
        """Open the gateway connection on the loop; `on_end()` is called if it ends by itself."""
        future = asyncio.run_coroutine_threadsafe(
            self.client.connect(reconnect=True), self.bridge.loop
        )
        if on_end is not None:
            future.add_done_callback(lambda _f: on_end())
        self.connection = future

    def disconnect(self) -> None:
        """Close the client (the gateway and the HTTP session) and say why it ended, if it did."""
        if not self.bridge.loop.is_closed():
            self.bridge.call(self.client.close(), timeout=CLOSE_SECONDS)
        if self.connection is not None:
            error = self.connection.exception(timeout=CLOSE_SECONDS)
            self.connection = None
            if error is not None:
                hint = next((h for t, h in FATAL_HINTS.items() if isinstance(error, t)), None)
                log.error(
                    "Discord closed the connection: %s%s", error, f" ({hint})" if hint else ""
                )

    def close(self) -> None:
        """Let go of the client and the loop's thread; called once, after serve returned."""
        if self.connection is not None:
            self.disconnect()
        elif not self.client.is_closed():
            self.bridge.call(self.client.close(), timeout=CLOSE_SECONDS)
        self.bridge.close()


async def _new_client(*, telemetry: Telemetry, guild_ready_timeout: float) -> PaperClubClient:
    """The client, made on the loop it will run on."""
    return PaperClubClient(telemetry=telemetry, guild_ready_timeout=guild_ready_timeout)


def _follow(*, chat: DiscordChat, club: Club, channel_id: str) -> None:
    """DISCORD_CHANNEL follows the reading list (unless it already has its own schedule)."""
    try:
        data = chat.channel_info(channel_id=channel_id)
    except ChatError as exc:
        raise PlatformStartError(
            f"DISCORD_CHANNEL {channel_id}: Discord says {exc.code} ({exc.hint})"
        ) from None
    guild = data.get("guild_id")
    if not guild:
        raise PlatformStartError(f"DISCORD_CHANNEL {channel_id} is not a server's channel")
    key = channel_key(guild_id=str(guild), channel_id=channel_id)
    club.follow(channel=key, private=chat.is_private(channel=key))


def build(*, settings: Settings, club: Club, mode: str) -> DiscordPlatform:
    """The platform as `paperclub run` builds it (Discord has one mode)."""
    return build_platform(settings=settings, club=club)


def build_platform(
    *, settings: Settings, club: Club, guild_ready_timeout: float = GUILD_READY_SECONDS
) -> DiscordPlatform:
    """Point discord.py at DISCORD_API_URL and DISCORD_GATEWAY_URL, log in (which checks the
    token), follow DISCORD_CHANNEL, and wire the listeners; the gateway opens in serve().
    `guild_ready_timeout` is how long discord.py waits for more guilds before it is ready."""
    point_at(api_url=settings.discord_api_url, gateway_url=settings.discord_gateway_url)
    bridge = Bridge()
    client: PaperClubClient | None = None
    try:
        client = bridge.call(
            _new_client(telemetry=club.telemetry, guild_ready_timeout=guild_ready_timeout)
        )
        chat = DiscordChat(client=client, bridge=bridge, keys=ButtonKeys())
        deps = DiscordDeps(
            room=club.on(chat=chat, platform=NAME, also_up=UP, also_down=DOWN),
            chat=chat,
            bridge=bridge,
            keys=chat.keys,
        )
        # Listeners first: logging in runs setup_hook, which registers /paperclub with Discord.
        client.attach(deps=deps)
        try:
            bridge.call(client.login(settings.discord_token or ""))
        except discord.LoginFailure:
            hint = FATAL_HINTS[discord.LoginFailure]
            raise PlatformStartError(f"Discord refused the bot token ({hint})") from None
        except FAILURES as exc:
            error = chat_error(error=exc)
            raise PlatformStartError(
                f"Discord's API cannot be reached at DISCORD_API_URL={settings.discord_api_url}"
                f" ({error.hint})"
            ) from None
        if settings.discord_channel:
            _follow(chat=chat, club=club, channel_id=settings.discord_channel)
        log.info("logged in to Discord as %s", client.user)
        return DiscordPlatform(client=client, chat=chat, bridge=bridge)
    except BaseException:
        if client is not None:
            bridge.call(client.close(), timeout=CLOSE_SECONDS)
        bridge.close()
        raise
