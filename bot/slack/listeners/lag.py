"""Event lag: how long after Slack stamped an event or a click we start handling it."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

from slack_bolt import App, BoltRequest, BoltResponse
from slack_bolt.middleware import Middleware

from bot.services.telemetry import Telemetry
from bot.slack.deps import PLATFORM, SlackDeps


def stamped_at(*, body: dict[str, Any]) -> float | None:
    """When Slack stamped a request: an event's event_ts (else the envelope's event_time, in
    whole seconds), a click's action_ts; None for a slash command, which carries no time."""
    event, actions = body.get("event"), body.get("actions")
    stamps: list[Any] = [
        event.get("event_ts") if isinstance(event, dict) else None,
        body.get("event_time"),
        actions[0].get("action_ts")
        if isinstance(actions, list) and actions and isinstance(actions[0], dict)
        else None,
    ]
    for stamp in stamps:
        try:
            seconds = float(stamp)
        except (TypeError, ValueError):
            continue
        if math.isfinite(seconds):
            return seconds
    return None


class EventLag(Middleware):
    """A global middleware, right after the guard: it times our own requests only."""

    def __init__(self, *, telemetry: Telemetry, now: Callable[[], float] = time.time) -> None:
        """Report to `telemetry` (the club's); Slack's stamps are Unix times, so the lag is
        read on the wall clock."""
        self._telemetry = telemetry
        self._now = now

    def process(
        self, *, req: BoltRequest, resp: BoltResponse, next: Callable[[], BoltResponse]
    ) -> BoltResponse | None:
        """Report the lag of a stamped request, then pass it on."""
        stamp = stamped_at(body=req.body)
        if stamp is not None:
            self._telemetry.event_lag(platform=PLATFORM, seconds=self._now() - stamp)
        return next()


def register(*, app: App, deps: SlackDeps) -> None:
    """The lag middleware; registered after the guard, so another team's requests are not timed."""
    app.middleware(EventLag(telemetry=deps.room.telemetry))
