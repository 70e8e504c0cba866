"""Messages in a daily post's thread are comments; edits and deletes (bulk too) follow them."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import discord

from bot.discord.deps import DiscordDeps
from bot.discord.listeners.outage import lost
from bot.discord.text import by_a_person, typed
from bot.domain import ChannelKey
from bot.ports import ArchiveUnavailable
from bot.services.thread_event import ThreadEvent


def _parent(*, client: discord.Client, channel_id: int) -> int | None:
    """The channel a thread belongs to (a daily post's thread has the post's id); None for
    anything that is no thread the client knows (threads are cached from the gateway)."""
    channel = client.get_channel(channel_id)
    return channel.parent_id if isinstance(channel, discord.Thread) else None


def _channel(*, deps: DiscordDeps, guild_id: int | None, thread_id: int) -> ChannelKey | None:
    """The channel whose thread an event is in; None when it is in no thread of a guild."""
    parent = _parent(client=deps.chat.client, channel_id=thread_id)
    if guild_id is None or parent is None:
        return None
    return deps.channel(guild_id=guild_id, channel_id=parent)


async def _store(
    *, deps: DiscordDeps, what: str, about: ThreadEvent, call: Callable[[], object]
) -> None:
    """Run one comment's change on a worker, in its message's lane; one the archive could not
    take is logged with its ids (Discord does not deliver an event again)."""
    try:
        await deps.bridge.blocking(call, lane=f"comment:{about.message_id}")
    except ArchiveUnavailable:
        lost(what=what, channel=about.channel, message_id=about.message_id, user=about.user)


async def created(*, deps: DiscordDeps, message: discord.Message) -> None:
    """A new message: kept when it is a person's reply in a daily post's thread."""
    if not by_a_person(message=message):
        return
    guild_id = message.guild.id if message.guild else None
    channel = _channel(deps=deps, guild_id=guild_id, thread_id=message.channel.id)
    if channel is not None:
        text, room = typed(message=message), deps.room
        about = ThreadEvent(
            channel=channel,
            thread_id=str(message.channel.id),
            message_id=str(message.id),
            user=str(message.author.id),
        )
        await _store(
            deps=deps, what="reply", about=about, call=lambda: room.reply(about=about, text=text)
        )


async def edited(*, deps: DiscordDeps, payload: discord.RawMessageUpdateEvent) -> None:
    """An edit: the comment takes the new text (an embed appearing changes nothing)."""
    message = payload.message
    if not by_a_person(message=message):
        return
    stamp = message.edited_at.isoformat() if message.edited_at else "unfurl"
    channel = _channel(deps=deps, guild_id=payload.guild_id, thread_id=payload.channel_id)
    if channel is not None:
        text, room = typed(message=message), deps.room
        about = ThreadEvent(
            channel=channel,
            thread_id=str(payload.channel_id),
            message_id=str(payload.message_id),
            user=str(message.author.id),
            stamp=stamp,
        )
        await _store(
            deps=deps, what="edit", about=about, call=lambda: room.edit(about=about, text=text)
        )


async def deleted(
    *, deps: DiscordDeps, guild_id: int | None, channel_id: int, message_ids: set[int]
) -> None:
    """Deleted messages (one, or a bulk delete) leave search and export."""
    channel = _channel(deps=deps, guild_id=guild_id, thread_id=channel_id)
    if channel is None:
        return
    for message_id in sorted(message_ids):
        about = ThreadEvent(channel=channel, thread_id=str(channel_id), message_id=str(message_id))
        await _store(
            deps=deps, what="delete", about=about, call=partial(deps.room.delete, about=about)
        )
