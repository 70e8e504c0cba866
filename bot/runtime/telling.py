"""Telling a channel something unasked from a background thread (a watch's source failing, a
Zotero link failing): through the Chat of its platform when that platform runs here, a
platform's refusal logged, never raised into the thread's pass."""

from __future__ import annotations

import logging
from collections.abc import Mapping

from bot.domain import ChannelKey
from bot.messages import Message
from bot.ports import Chat, ChatError

log = logging.getLogger("paperclub")


def tell(*, chats: Mapping[str, Chat], channel: ChannelKey, message: Message, what: str) -> None:
    """Say `message` to `channel` (nothing when its platform does not run here); `what` names
    the report in the log line of a refusal ("a failing watch")."""
    chat = chats.get(channel.platform)
    if chat is None:
        return
    try:
        chat.send_notice(channel=channel, message=message)
    except ChatError as error:
        log.error("could not report %s: %s (%s)", what, error.code, error.hint)
