"""The bot's DM channel with one person, found the way discord.py does it: the user from its
cache or GET /users/{id}, then their DM channel from its cache or POST /users/@me/channels
(Discord answers the same channel for the same person each time)."""

from __future__ import annotations

import discord

from bot.discord.bridge import Bridge
from bot.discord.errors import FAILURES, chat_error
from bot.ports import ChatError


async def _dm_channel_id(*, client: discord.Client, user_id: int) -> str:
    """The DM channel's id, opened when discord.py holds none for the user yet."""
    user = client.get_user(user_id) or await client.fetch_user(user_id)
    channel = user.dm_channel or await user.create_dm()
    return str(channel.id)


def dm_channel(*, client: discord.Client, bridge: Bridge, user: str) -> str:
    """The id of the bot's DM channel with `user`, from a core thread. ChatError when Discord
    refuses or cannot be asked; nothing has been sent by then, so `posted_nothing` holds."""
    if not user.isdigit():
        raise ChatError(
            code="unknown_user", hint=f"{user!r} is not a Discord user id", posted_nothing=True
        )
    try:
        return bridge.call(_dm_channel_id(client=client, user_id=int(user)))
    except FAILURES as exc:
        error = chat_error(error=exc)
    raise ChatError(code=error.code, hint=error.hint, posted_nothing=True)
