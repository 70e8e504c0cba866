"""An event the archive could not take. Discord delivers a gateway event once (a new session
replays nothing), so it cannot be left for a retry as Slack's can: it is logged at WARNING with
every id needed to read it back from Discord later, and nothing of it was stored."""

from __future__ import annotations

import logging

from bot.domain import ChannelKey

log = logging.getLogger(__name__)


def lost(*, what: str, channel: ChannelKey, message_id: object, user: object = "") -> None:
    """Log one event that was not stored (the cause was logged where it was raised, in bot/db)."""
    log.warning(
        "%s not stored, the archive is unavailable: channel %s, message %s, user %s",
        what,
        channel,
        message_id,
        user or "-",
    )
