"""ports.Chat over discord.py's HTTP client: the daily post (with its nonce and thread),
history look-ups, redraws, notices, privacy and admin checks; ports.ReadBack and
ports.SessionEvents (the sessions' scheduled events) by composition.

The core calls these from its own threads (the scheduler, the redraw coalescer, the workers
listeners hand core calls to); each one runs its REST calls on the Discord loop through the
bridge and waits. The payloads are our own JSON (bot/discord/embeds.py, render.py), sent with
discord.py's `Route`, so its rate-limit handling (429s, buckets) applies to every call.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

import discord
from discord.http import Route

from bot.discord import directs, embeds, history, names, privacy, render
from bot.discord.bridge import Bridge
from bot.discord.errors import FAILURES, chat_error
from bot.discord.keys import ButtonKeys
from bot.discord.readback import DiscordReadBack
from bot.discord.scheduled_events import DiscordSessionEvents
from bot.domain import ChannelKey, PaperCard, PostedMessage
from bot.messages import Message
from bot.ports import ChatError
from bot.ports.platform import ChannelNames, PostAttempt, Posted, failed_attempt
from bot.ports.readback import SeenReaction, ThreadPage
from bot.ports.session_events import SessionEvent

log = logging.getLogger(__name__)

ARCHIVE_MINUTES = 10080  # a week without a message before Discord hides the thread
ALREADY_THREADED = 160004  # "A thread has already been created for this message"
NAME_TTL_SECONDS = 3600


def nonce(*, post_id: int) -> str:
    """The message nonce of a daily post: Discord answers a repeated one (within minutes) with
    the message it already created, so a retry never doubles the post. At most 25 units."""
    return f"pc{post_id}"


def permalink(*, guild: str, channel: str, message: str) -> str:
    """The message's link in Discord."""
    return f"https://discord.com/channels/{guild}/{channel}/{message}"


class DiscordChat:
    """The Chat port for Discord, on a logged-in discord.py client."""

    def __init__(
        self,
        *,
        client: discord.Client,
        bridge: Bridge,
        keys: ButtonKeys,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        """REST calls go through `client.http` on the bridge's loop."""
        self.client = client
        self.bridge = bridge
        self.keys = keys
        self.sleep = sleep
        self._names: dict[str, tuple[str, float]] = {}
        self.readback = DiscordReadBack(client=client, bridge=bridge)
        self.scheduled = DiscordSessionEvents(client=client, bridge=bridge)

    @property
    def bot_id(self) -> str:
        """Our own user id (known once logged in)."""
        user = self.client.user
        return str(user.id) if user else ""

    async def _request(self, route: Route, **kwargs: Any) -> Any:
        """One REST call; what it raises is left to the caller to translate."""
        return await self.client.http.request(route, **kwargs)

    def _call(self, route: Route, **kwargs: Any) -> Any:
        """One REST call from a core thread; a failure is a ChatError."""
        try:
            return self.bridge.call(self._request(route, **kwargs))
        except FAILURES as exc:
            raise chat_error(error=exc) from None

    # -- the daily post ----------------------------------------------------------------------

    def _named(self, *, card: PaperCard) -> PaperCard:
        """The card with the adder's display name, when a Discord member added the paper."""
        adder = card.paper.added_by
        if card.added_by_name or not adder or not adder.isdigit():
            return card
        return replace(card, added_by_name=self.display_name(user=adder))

    def try_post(self, *, channel: ChannelKey, card: PaperCard) -> PostAttempt:
        """One message create of a daily paper (its nonce makes a repeat within minutes return
        the same message), then its thread."""
        body = {
            **embeds.daily_post(card=self._named(card=card)),
            "allowed_mentions": render.ALLOWED_MENTIONS,
            "nonce": nonce(post_id=card.post_id),
            "enforce_nonce": True,
        }
        route = Route("POST", "/channels/{channel_id}/messages", channel_id=channel.channel)
        try:
            sent = self._call(route, json=body)
        except ChatError as error:
            return failed_attempt(error=error)
        return Posted(message=self._opened(channel=channel, message_id=str(sent["id"]), card=card))

    def pause(self, *, seconds: float) -> None:
        """Wait between two attempts (`sleep`, which tests replace)."""
        self.sleep(seconds)

    def _opened(self, *, channel: ChannelKey, message_id: str, card: PaperCard) -> PostedMessage:
        """Open the post's thread (once; a refusal is logged and the post stands)."""
        route = Route(
            "POST",
            "/channels/{channel_id}/messages/{message_id}/threads",
            channel_id=channel.channel,
            message_id=message_id,
        )
        body = {"name": embeds.thread_name(card=card), "auto_archive_duration": ARCHIVE_MINUTES}
        try:
            self.bridge.call(self._request(route, json=body))
        except discord.HTTPException as exc:
            if exc.code != ALREADY_THREADED:
                error = chat_error(error=exc)
                log.warning(
                    "no thread for the post in %s: %s (%s)", channel, error.code, error.hint
                )
        except FAILURES as exc:
            log.warning("no thread for the post in %s: %s", channel, exc)
        link = permalink(guild=channel.workspace, channel=channel.channel, message=message_id)
        return PostedMessage(message_id=message_id, permalink=link)

    def find_post(
        self,
        *,
        channel: ChannelKey,
        post_id: int,
        since: datetime | None,
        card: PaperCard | None = None,
    ) -> PostedMessage | None:
        """Page back through the channel's recent history for our post with this id; with its
        card, a found post whose thread was never opened (a crash in between) gets it now."""
        for message in history.recent(call=self._call, channel=channel, since=since):
            if history.is_post(message=message, bot_id=self.bot_id, post_id=post_id):
                message_id = str(message["id"])
                if card is not None and not message.get("thread"):
                    return self._opened(channel=channel, message_id=message_id, card=card)
                link = permalink(
                    guild=channel.workspace, channel=channel.channel, message=message_id
                )
                return PostedMessage(message_id=message_id, permalink=link)
        return None

    def find_notice(self, *, channel: ChannelKey, message: Message, since: datetime) -> str | None:
        """Page back through the channel's recent history for a message of ours whose buttons
        carry one of this message's custom ids; its id."""
        wanted = history.custom_ids_of(message=message)
        if not wanted:
            return None  # nothing to know it by
        for seen in history.recent(call=self._call, channel=channel, since=since):
            if history.shows_any(message=seen, bot_id=self.bot_id, custom_ids=wanted):
                return str(seen["id"])
        return None

    def update_post(self, *, channel: ChannelKey, message_id: str, card: PaperCard) -> None:
        """Redraw a daily post with fresh counts (an edit is idempotent)."""
        body = {
            **embeds.daily_post(card=self._named(card=card)),
            "allowed_mentions": render.ALLOWED_MENTIONS,
        }
        route = Route(
            "PATCH",
            "/channels/{channel_id}/messages/{message_id}",
            channel_id=channel.channel,
            message_id=message_id,
        )
        self._call(route, json=body)

    def send_notice(self, *, channel: ChannelKey, message: Message) -> str | None:
        """Say something to the whole channel; nobody is notified of any mention in it."""
        return self._say(channel_id=channel.channel, message=message)

    def send_direct(self, *, channel: ChannelKey, user: str, message: Message) -> str | None:
        """Say something to one member in the bot's DM channel with them, as a notice; a
        member whose DMs are closed is 403 50007, a ChatError that posted nothing."""
        dm = directs.dm_channel(client=self.client, bridge=self.bridge, user=user)
        return self._say(channel_id=dm, message=message)

    def _say(self, *, channel_id: str, message: Message) -> str:
        """One message create of a neutral message, mentions inert -> its id."""
        body = {
            "content": render.render(message=message),
            "components": render.components(message=message, key=self.keys.key),
            "allowed_mentions": render.ALLOWED_MENTIONS,
        }
        route = Route("POST", "/channels/{channel_id}/messages", channel_id=channel_id)
        return str(self._call(route, json=body)["id"])

    # -- reading a post back (ports.ReadBack, in bot/discord/readback.py) -------------------

    def reactions_on(
        self, *, channel: ChannelKey, message_id: str, names: frozenset[str]
    ) -> list[SeenReaction]:
        """Everyone's reactions on the post now whose name votes (DiscordReadBack)."""
        return self.readback.reactions_on(channel=channel, message_id=message_id, names=names)

    def thread_page(
        self, *, channel: ChannelKey, message_id: str, cursor: str | None
    ) -> ThreadPage:
        """One page of the post's thread (DiscordReadBack)."""
        return self.readback.thread_page(channel=channel, message_id=message_id, cursor=cursor)

    # -- sessions as scheduled events (ports.SessionEvents, bot/discord/scheduled_events.py) -

    def publish_event(
        self, *, channel: ChannelKey, event_id: str | None, event: SessionEvent
    ) -> str:
        """Make or change a session's scheduled event (DiscordSessionEvents)."""
        return self.scheduled.publish_event(channel=channel, event_id=event_id, event=event)

    def remove_event(self, *, channel: ChannelKey, event_id: str) -> None:
        """Delete a session's scheduled event (DiscordSessionEvents)."""
        self.scheduled.remove_event(channel=channel, event_id=event_id)

    # -- who and where -------------------------------------------------------------------------

    def display_name(self, *, user: str) -> str:
        """A person's display name (cached for an hour); the id when Discord cannot say."""
        now = time.monotonic()
        cached = self._names.get(user)
        if cached is not None and now - cached[1] < NAME_TTL_SECONDS:
            return cached[0]
        try:
            data = self._call(Route("GET", "/users/{user_id}", user_id=user))
        except ChatError as exc:
            log.warning("no name for Discord user %s: %s", user, exc)
            return cached[0] if cached else user
        name = str(data.get("global_name") or data.get("username") or user)
        self._names[user] = (name, now)
        return name

    def channel_info(self, *, channel_id: str) -> dict[str, Any]:
        """A channel's or thread's payload (its type, guild, parent and overwrites)."""
        data: dict[str, Any] = self._call(
            Route("GET", "/channels/{channel_id}", channel_id=channel_id)
        )
        return data

    def is_private(self, *, channel: ChannelKey) -> bool:
        """Whether people outside the channel cannot see it (bot.discord.privacy)."""
        return privacy.is_private(chat=self, channel=channel)

    def names_of(self, *, channel: ChannelKey, people: Sequence[str]) -> ChannelNames:
        """From the guild cache, else GET /channels and /users (bot.discord.names)."""
        return names.names_of(chat=self, channel=channel, people=people)

    def is_admin(self, *, channel: ChannelKey, user: str) -> bool:
        """Members with Manage Server (or Administrator, or the owner) in the channel's guild."""
        if not (channel.workspace.isdigit() and user.isdigit()):
            return False
        try:
            asked = self._manages(guild_id=int(channel.workspace), user_id=int(user))
            return bool(self.bridge.call(asked))
        except FAILURES as exc:
            log.warning("could not tell whether %s is an admin of %s: %s", user, channel, exc)
            return False

    async def _manages(self, *, guild_id: int, user_id: int) -> bool:
        """Whether the member may manage the guild (discord.py computes it from their roles)."""
        guild = self.client.get_guild(guild_id) or await self.client.fetch_guild(guild_id)
        member = guild.get_member(user_id) or await guild.fetch_member(user_id)
        permissions = member.guild_permissions
        return permissions.manage_guild or permissions.administrator


__all__ = ["DiscordChat", "nonce"]
