"""Several fake workspaces behind one Web API: each token belongs to one team's Workspace."""

from __future__ import annotations

import threading

from .limits import RateLimits
from .state import Workspace


class Registry:
    """The workspaces the fake serves, keyed by team id; the first is the default one."""

    def __init__(self, primary: Workspace) -> None:
        self.primary = primary
        self._lock = threading.Lock()
        self._teams: dict[str, Workspace] = {primary.team_id: primary}
        # Slack's rate limits, when switched on: one table for every workspace, kept apart.
        self.limits = RateLimits()

    def add(self, ws: Workspace) -> Workspace:
        """Serve one more workspace (a team id is served once)."""
        with self._lock:
            if ws.team_id in self._teams:
                raise ValueError(f"team {ws.team_id} is already served")
            self._teams[ws.team_id] = ws
        return ws

    def get(self, team_id: str) -> Workspace:
        """The workspace of a team; KeyError when the fake has none."""
        with self._lock:
            return self._teams[team_id]

    def all(self) -> list[Workspace]:
        """Every workspace, the default one first."""
        with self._lock:
            return list(self._teams.values())

    def for_token(self, token: str | None) -> Workspace:
        """The workspace a token was issued in (revoked ones too); the default one for an
        unknown or missing token, which then answers invalid_auth or not_authed."""
        if token:
            for ws in self.all():
                with ws.lock:
                    if (
                        token in ws.bot_tokens
                        or token in ws.app_tokens
                        or token in ws.revoked_tokens
                    ):
                        return ws
        return self.primary
