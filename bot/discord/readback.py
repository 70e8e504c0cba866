"""ports.ReadBack for Discord: a daily post's reactions and its thread, read over REST.

Discord replays nothing to a new gateway session, so what people did while the bot was away
is read back here, shaped as the live listeners would have passed it to the Room
(bot/discord/listeners/votes.py, comments.py): the same reaction names and emoji spellings
(a reaction's presence key is built from them), the same messages kept and the same text.
Each request goes through discord.py's HTTP client on the Discord loop, so its per-route
buckets and its waiting out of 429s apply; one request at a time, so a bridge call's timeout
bounds a single request, not a whole read.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import discord
from discord.http import Route

from bot.discord.bridge import Bridge
from bot.discord.errors import FAILURES, chat_error
from bot.discord.text import by_a_person, reaction_name, typed
from bot.domain import ChannelKey
from bot.ports.readback import SeenReaction, SeenReply, ThreadPage

PAGE = 100  # Discord's most per page, for reaction users and messages alike
UNKNOWN_CHANNEL = 10003  # the post never got its thread (or it was deleted)
NORMAL, BURST = 0, 1  # reaction types: a plain reaction, a super reaction


def emoji_of(*, reaction: dict[str, Any]) -> discord.PartialEmoji:
    """The emoji of a message's reaction, as a gateway event would carry it."""
    return discord.PartialEmoji.from_dict(reaction.get("emoji") or {})


def route_emoji(*, emoji: discord.PartialEmoji) -> str:
    """An emoji as the reactions route names it: the character, or name:id for a custom one
    (Route percent-encodes it)."""
    return f"{emoji.name}:{emoji.id}" if emoji.id else str(emoji.name or "")


def reaction_types(*, reaction: dict[str, Any]) -> list[int]:
    """Which user lists a reaction has: plain ones, super ones, or both (the route lists one
    type at a time, plain by default)."""
    details = reaction.get("count_details") or {}
    if not details:
        return [NORMAL]
    return [kind for kind, key in ((NORMAL, "normal"), (BURST, "burst")) if details.get(key)]


def written_at(*, message_id: int) -> datetime:
    """When a message was written: its snowflake's time, in UTC."""
    return discord.utils.snowflake_time(message_id).astimezone(UTC)


class DiscordReadBack:
    """Reads a post back through a logged-in discord.py client (composed into DiscordChat)."""

    def __init__(self, *, client: discord.Client, bridge: Bridge) -> None:
        """REST calls go through `client.http` on the bridge's loop."""
        self.client = client
        self.bridge = bridge

    def _bot_id(self) -> str:
        """Our own user id (known once logged in)."""
        user = self.client.user
        return str(user.id) if user else ""

    def _get(self, route: Route, **params: Any) -> Any:
        """One GET from a core thread; a failure is a ChatError."""
        try:
            return self.bridge.call(self.client.http.request(route, params=params or None))
        except FAILURES as exc:
            raise chat_error(error=exc) from None

    # -- reactions -----------------------------------------------------------------------------

    def reactions_on(
        self, *, channel: ChannelKey, message_id: str, names: frozenset[str]
    ) -> list[SeenReaction]:
        """The message's `reactions` (emoji and counts), then for each emoji that votes every
        user who reacted with it, PAGE at a time; the bot's own reactions left out."""
        route = Route(
            "GET",
            "/channels/{channel_id}/messages/{message_id}",
            channel_id=channel.channel,
            message_id=message_id,
        )
        message: dict[str, Any] = self._get(route)
        seen: dict[tuple[str, str], SeenReaction] = {}
        for reaction in message.get("reactions") or []:
            emoji = emoji_of(reaction=reaction)
            name = reaction_name(emoji=emoji)
            if name.split("::")[0] not in names:
                continue
            for kind in reaction_types(reaction=reaction):
                for user in self._users(
                    channel=channel, message_id=message_id, emoji=emoji, kind=kind
                ):
                    seen.setdefault(
                        (user, str(emoji)), SeenReaction(user=user, name=name, emoji=str(emoji))
                    )
        return list(seen.values())

    def _users(
        self, *, channel: ChannelKey, message_id: str, emoji: discord.PartialEmoji, kind: int
    ) -> list[str]:
        """Everyone but the bot who reacted with `emoji` (of one type), all pages read: each
        page is PAGE users after the last one's id, until a short page."""
        route = Route(
            "GET",
            "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}",
            channel_id=channel.channel,
            message_id=message_id,
            emoji=route_emoji(emoji=emoji),
        )
        users: list[str] = []
        after: str | None = None
        while True:
            params: dict[str, Any] = {"limit": PAGE, "type": kind}
            if after is not None:
                params["after"] = after
            page: list[dict[str, Any]] = self._get(route, **params)
            users += [str(user["id"]) for user in page]
            if len(page) < PAGE:
                bot = self._bot_id()
                return [user for user in users if user != bot]
            after = str(page[-1]["id"])

    # -- the thread ----------------------------------------------------------------------------

    def thread_page(
        self, *, channel: ChannelKey, message_id: str, cursor: str | None
    ) -> ThreadPage:
        """PAGE messages of the thread started from the post (the thread has its id) after
        `cursor` (a message id; None: from the start), people's replies kept, oldest first.
        The next cursor is the newest message read, None after a short page; a post without
        a thread (Unknown Channel) gives an empty last page."""
        guild = int(channel.workspace) if channel.workspace.isdigit() else None
        try:
            read = self.bridge.call(
                self._thread_messages(guild_id=guild, thread_id=int(message_id), cursor=cursor)
            )
        except discord.NotFound as exc:
            # Only a first page: a thread gone half-way through its read is no empty thread.
            if exc.code == UNKNOWN_CHANNEL and cursor is None:
                return ThreadPage(replies=(), cursor=None)
            raise chat_error(error=exc) from None
        except FAILURES as exc:
            raise chat_error(error=exc) from None
        messages, full = read
        replies = tuple(
            SeenReply(
                message_id=str(message.id),
                user=str(message.author.id),
                text=typed(message=message),
                written_at=written_at(message_id=message.id),
                edited_at=message.edited_at,
            )
            for message in messages
            if by_a_person(message=message)
        )
        return ThreadPage(replies=replies, cursor=str(messages[-1].id) if full else None)

    async def _thread_messages(
        self, *, guild_id: int | None, thread_id: int, cursor: str | None
    ) -> tuple[list[discord.Message], bool]:
        """(one page of the thread's messages as discord.py reads a gateway message, oldest
        first; whether the page was full). Discord answers newest first even after `after`."""
        route = Route("GET", "/channels/{channel_id}/messages", channel_id=thread_id)
        params = {"limit": PAGE, "after": cursor or "0"}
        data: list[dict[str, Any]] = await self.client.http.request(route, params=params)
        thread = self.client.get_partial_messageable(
            thread_id, guild_id=guild_id, type=discord.ChannelType.public_thread
        )
        state = self.client._connection  # what discord.py builds every Message with
        ordered = sorted(data, key=lambda message: int(message["id"]))
        built = [discord.Message(state=state, channel=thread, data=m) for m in ordered]  # type: ignore[arg-type]
        return built, len(data) >= PAGE
