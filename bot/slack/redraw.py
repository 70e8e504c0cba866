"""A bot message redrawn in place (chat.update): the suggestions tray after a decision.

A redraw that fails is logged, never raised: the person who clicked is answered all the same,
and the tray's next click (or /paperclub suggestions) shows the state as it is."""

from __future__ import annotations

import logging
from urllib.error import URLError

from slack_sdk.errors import SlackApiError

from bot.domain import ChannelKey
from bot.messages import Message
from bot.slack.chat import SlackChat

log = logging.getLogger(__name__)


def redraw(*, chat: SlackChat, channel: ChannelKey, ts: str, message: Message) -> bool:
    """Show `message` in place of the bot's message `ts`; whether Slack took it. chat.update
    rather than the click's response_url: it works for a message the click did not come from
    (a decision on the App Home), and it replaces the message for everyone in the channel."""
    text, shown = chat.render(message=message)
    try:
        chat.client.chat_update(channel=channel.channel, ts=ts, text=text, blocks=shown)
    except SlackApiError as exc:
        log.warning("could not redraw %s in %s: %s", ts, channel, exc.response.get("error"))
        return False
    except (URLError, OSError) as exc:  # URLError is an OSError
        log.warning("could not redraw %s in %s: %s", ts, channel, type(exc).__name__)
        return False
    return True
