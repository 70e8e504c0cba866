"""Our own messages found again in a channel's recent history (Get Channel Messages, paged
back with `before`): a daily post by its 👍 button, a notice (the suggestions tray) by its
buttons' custom ids. Discord returns an app's own messages whole, components included, with
or without the message content intent; it keeps no nonce to find a message by."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import datetime
from typing import Any

from discord.http import Route

from bot.discord import embeds, render
from bot.domain import ChannelKey
from bot.messages import Buttons, Message

HISTORY_PAGES = 10  # 100 messages each: a busy channel's last day or so
PAGE = 100  # Discord's largest page
DISCORD_EPOCH_MS = 1_420_070_400_000

# One REST call from a core thread (DiscordChat._call): a failure is a ChatError.
Call = Callable[..., Any]


def snowflake_time(*, snowflake: int) -> float:
    """The Unix time a Discord id was made at."""
    return ((snowflake >> 22) + DISCORD_EPOCH_MS) / 1000


def recent(*, call: Call, channel: ChannelKey, since: datetime | None) -> Iterator[dict[str, Any]]:
    """The channel's messages, newest first, page by page until one reaches back past `since`
    (at most HISTORY_PAGES); ChatError when a page cannot be read."""
    before: str | None = None
    oldest = since.timestamp() if since else 0.0
    for _page in range(HISTORY_PAGES):
        params = {"limit": PAGE, **({"before": before} if before else {})}
        route = Route("GET", "/channels/{channel_id}/messages", channel_id=channel.channel)
        page: list[dict[str, Any]] = call(route, params=params)
        yield from page
        if len(page) < PAGE:
            return
        before = str(page[-1]["id"])
        if snowflake_time(snowflake=int(before)) < oldest:
            return


def _button_ids(*, message: dict[str, Any], bot_id: str) -> set[str]:
    """The custom ids of a message's buttons when the message is ours; none otherwise."""
    if not bot_id or str((message.get("author") or {}).get("id")) != bot_id:
        return set()
    return {
        str(item.get("custom_id"))
        for row in message.get("components") or []
        if isinstance(row, dict)
        for item in row.get("components") or []
        if isinstance(item, dict)
    }


def is_post(*, message: dict[str, Any], bot_id: str, post_id: int) -> bool:
    """Whether a message from history is our daily post with this id (its 👍 button says so)."""
    wanted = embeds.vote_custom_id(post_id=post_id, up=True)
    return wanted in _button_ids(message=message, bot_id=bot_id)


def custom_ids_of(*, message: Message) -> frozenset[str]:
    """The custom ids this message's buttons are sent with (a value too long for one is keyed
    by its digest, as the process's ButtonKeys key it, so the same after a restart)."""
    return frozenset(
        render.custom_id(action=button.action, value=button.value)
        for block in message.blocks
        if isinstance(block, Buttons)
        for button in block.buttons
    )


def shows_any(*, message: dict[str, Any], bot_id: str, custom_ids: frozenset[str]) -> bool:
    """Whether a message from history is ours and carries one of these buttons."""
    return not custom_ids.isdisjoint(_button_ids(message=message, bot_id=bot_id))
