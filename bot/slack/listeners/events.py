"""Events: every event is acked, so Slack never sees a 404 and never retries for nothing."""

from __future__ import annotations

import re
from typing import Any

from slack_bolt import Ack, App


def register(*, app: App) -> None:
    """The catch-all, registered last: message subtypes and events nobody else handles."""

    @app.event(re.compile(r".*"))
    def on_any_event(ack: Ack, event: dict[str, Any]) -> None:
        """Nothing to do; acking is the point."""
        ack()
