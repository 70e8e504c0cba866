"""Requests for another workspace or another app: acknowledged, ignored and logged.

With one installation, an event, click or command from a team or app that is not ours is a
forgery or a misrouted request; nothing of it may be stored or answered.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from slack_bolt import App, BoltRequest, BoltResponse
from slack_bolt.middleware import Middleware

from bot.slack.deps import SlackDeps
from bot.slack.workspace import workspace_of

log = logging.getLogger(__name__)


class OnlyOurs(Middleware):
    """A global middleware in front of every listener: our own team's and app's requests pass
    on; the rest are acknowledged and dropped. A Middleware class, not a decorated function:
    Bolt inspects a function middleware's signature to build its arguments on every request."""

    def __init__(self, *, deps: SlackDeps) -> None:
        """Compare against the team and app the plug-in found at start-up."""
        self._deps = deps

    def process(
        self, *, req: BoltRequest, resp: BoltResponse, next: Callable[[], BoltResponse]
    ) -> BoltResponse | None:
        """Pass the request on, or answer it with an empty 200 when it is not ours."""
        body, deps = req.body, self._deps
        team, app_id = workspace_of(body=body), body.get("api_app_id")
        foreign_team = bool(deps.team_id and team and team != deps.team_id)
        foreign_app = bool(deps.app_id and app_id and app_id != deps.app_id)
        if foreign_team or foreign_app:
            log.warning(
                "ignored a %s for team %s, app %s (we are team %s, app %s)",
                body.get("type") or "command",
                team,
                app_id,
                deps.team_id,
                deps.app_id,
            )
            # A global middleware acknowledges by returning the response itself: calling ack()
            # here builds one nobody sends, and Bolt answers 404 (HTTP) or nothing (Socket
            # Mode), so Slack would deliver the request again and again.
            return BoltResponse(status=200, body="")
        return next()


def register(*, app: App, deps: SlackDeps) -> None:
    """The guard, first of the global middleware."""
    app.middleware(OnlyOurs(deps=deps))
