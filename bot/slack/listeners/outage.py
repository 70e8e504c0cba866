"""An event the archive could not take: left unacknowledged, so that Slack delivers it again.

Slack retries an Events API delivery that was not answered 2xx (HTTP mode) or not acknowledged
(Socket Mode) three times over about five minutes, with the same event id; the processed-events
table stores the one that gets through exactly once, and a failed attempt recorded nothing.
"""

from __future__ import annotations

import logging
from typing import Any

from slack_bolt import BoltResponse

log = logging.getLogger(__name__)

# 503: nothing of the event was kept, try later. A listener that returns it is not acked:
# Bolt answers the HTTP request with it, and its Socket Mode adapter sends no ack for a
# status other than 200.
UNAVAILABLE = 503


def not_stored(*, body: dict[str, Any]) -> BoltResponse:
    """The answer that makes Slack deliver the event again, logged with its ids (the cause was
    logged where it was raised, in bot/db)."""
    event = body.get("event")
    kind = event.get("type") if isinstance(event, dict) else None
    log.warning(
        "event %s (%s) of team %s not stored: the archive is unavailable; Slack delivers it again",
        body.get("event_id"),
        kind,
        body.get("team_id"),
    )
    return BoltResponse(status=UNAVAILABLE, body="the archive is unavailable; try again later")
