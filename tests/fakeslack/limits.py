"""Slack's rate limits as the fake enforces them, when asked to.

`non_marketplace`: Slack's 2025 limits for apps distributed outside the Marketplace:
conversations.history and conversations.replies allow 1 request a minute per app and workspace
(here: one per `window` seconds, so tests use 1 s) and at most 15 messages a page (`limit`
above 15 reads as 15; absent, 15). `reactions`: reactions.get at most `calls` per `window`
(its Tier 3 is 50+ a minute). Over a limit: HTTP 429, `{"ok": false, "error": "ratelimited"}`
and a Retry-After header in whole seconds, at least 1.
"""

from __future__ import annotations

import math
import threading
import time
from dataclasses import dataclass

from .model import JsonDict

HISTORY_METHODS = ("conversations.history", "conversations.replies")
NON_MARKETPLACE_PAGE = 15


@dataclass(frozen=True)
class TierLimit:
    """At most `calls` requests per `window` seconds (a sliding window)."""

    calls: int
    window: float


class RateLimits:
    """The limits switched on, and who called what when; thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._limits: dict[str, TierLimit] = {}
        self._capped: set[str] = set()
        self._calls: dict[tuple[str, str], list[float]] = {}

    def non_marketplace(self, window: float = 60.0) -> None:
        """History methods: one call per `window` per (workspace, method), 15 a page."""
        with self._lock:
            for method in HISTORY_METHODS:
                self._limits[method] = TierLimit(1, window)
                self._capped.add(method)

    def tier(self, method: str, calls: int, window: float = 60.0) -> None:
        """Any method: at most `calls` per `window` per workspace (e.g. reactions.get)."""
        with self._lock:
            self._limits[method] = TierLimit(calls, window)

    def clear(self) -> None:
        """No limits any more (the calls so far are forgotten)."""
        with self._lock:
            self._limits.clear()
            self._capped.clear()
            self._calls.clear()

    def admit(self, team_id: str, method: str) -> int | None:
        """None: the call may go ahead (and counts); else the Retry-After to answer, in s."""
        now = time.monotonic()
        with self._lock:
            limit = self._limits.get(method)
            if limit is None:
                return None
            recent = [t for t in self._calls.get((team_id, method), []) if now - t < limit.window]
            if len(recent) >= limit.calls:
                self._calls[(team_id, method)] = recent
                return max(1, math.ceil(limit.window - (now - recent[0])))
            recent.append(now)
            self._calls[(team_id, method)] = recent
            return None

    def clamp(self, method: str, params: JsonDict) -> JsonDict:
        """The parameters the method runs with: `limit` at most 15 (15 when absent) under
        the non-Marketplace limits."""
        with self._lock:
            capped = method in self._capped
        if not capped:
            return params
        try:
            asked = int(params.get("limit") or 0)
        except (TypeError, ValueError):
            asked = 0
        page = NON_MARKETPLACE_PAGE if asked <= 0 else min(asked, NON_MARKETPLACE_PAGE)
        return {**params, "limit": page}
