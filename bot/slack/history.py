"""Our own messages found again in a channel's recent history (conversations.history, read
within Slack's limits by the reader): a daily post by its message metadata, a notice (the
suggestions tray) by its buttons, which Slack keeps in the message's blocks."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from typing import Any

from bot.domain import ChannelKey
from bot.messages import Buttons, Message
from bot.slack import ids
from bot.slack.readback import SlackReadBack

# Pages read before giving up (200 messages each under the tiers, 15 outside the Marketplace).
PAGES = 20

# A button as Slack keeps it in a message's blocks: (action_id, value).
SeenButton = tuple[str, str]


def recent(
    *, reader: SlackReadBack, channel: ChannelKey, oldest: datetime | None
) -> Iterator[dict[str, Any]]:
    """The channel's messages since `oldest` (all when None), newest first, at most PAGES
    pages; ChatError when a page cannot be read."""
    cursor: str | None = None
    first = f"{oldest.timestamp():.6f}" if oldest else "0"
    for _page in range(PAGES):
        messages, cursor = reader.history_page(channel=channel, oldest=first, cursor=cursor)
        yield from messages
        if not cursor:
            return


def is_post(*, message: dict[str, Any], post_id: int) -> bool:
    """Whether a message from history is the daily post with this id (its metadata says so)."""
    metadata = message.get("metadata") or {}
    payload = metadata.get("event_payload") or {}
    return metadata.get("event_type") == ids.METADATA_EVENT_TYPE and str(
        payload.get("post_id")
    ) == str(post_id)


def buttons_of(*, message: Message) -> frozenset[SeenButton]:
    """The message's buttons as Slack keeps them (bot.slack.render's action_id and value)."""
    return frozenset(
        (action, button.value[:2000])
        for block in message.blocks
        if isinstance(block, Buttons)
        for button, action in zip(
            block.buttons,
            ids.row_action_ids(actions=[b.action for b in block.buttons]),
            strict=True,
        )
    )


def shows_any(*, message: dict[str, Any], buttons: frozenset[SeenButton], bot_user: str) -> bool:
    """Whether a message from history is ours (posted as our bot user) and carries one of
    these buttons."""
    if not bot_user or message.get("user") != bot_user:
        return False
    for block in message.get("blocks") or []:
        if not isinstance(block, dict) or block.get("type") != "actions":
            continue
        for element in block.get("elements") or []:
            if not isinstance(element, dict):
                continue
            if (str(element.get("action_id")), str(element.get("value"))) in buttons:
                return True
    return False
