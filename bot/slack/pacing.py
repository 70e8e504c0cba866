"""Slack's limits on reading history, and a pacer that waits out its 429s.

Slack limits each Web API method per app per workspace. reactions.get is Tier 3 (50+ a
minute); conversations.history and conversations.replies are Tier 3 for Marketplace apps and
internal, customer-built ones, but for an app distributed outside the Marketplace Slack's 2025
change allows them 1 request a minute and at most 15 messages a page (PAPERCLUB_SLACK_HISTORY_
LIMITS says which applies). Over a limit Slack answers HTTP 429 with Retry-After in seconds.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from slack_sdk.errors import SlackApiError
from slack_sdk.web import SlackResponse

from bot.config.slack import HISTORY_LIMITS
from bot.ports import ChatError

log = logging.getLogger(__name__)

TIERS, NON_MARKETPLACE = HISTORY_LIMITS
# Slack's page size for the two history methods under the non-Marketplace limits (also their
# default), and what we ask under the tiers (Slack's documented maximum is 1,000; 200 is its
# advice for a page).
NON_MARKETPLACE_PAGE = 15
TIERS_PAGE = 200
# How long one call may spend waiting out 429s before it gives up (the reconciler tries again
# at its next run).
CAP_SECONDS = 30 * 60.0
# A 429 without a usable Retry-After waits this long (Slack always sends one).
DEFAULT_RETRY_AFTER = 60.0


@dataclass(frozen=True, slots=True)
class HistoryLimits:
    """Which limits conversations.history and conversations.replies are under."""

    kind: str = TIERS

    @property
    def page(self) -> int:
        """Messages to ask for a page of either history method."""
        return NON_MARKETPLACE_PAGE if self.kind == NON_MARKETPLACE else TIERS_PAGE


def retry_after(*, error: SlackApiError) -> float:
    """Seconds Slack asked to wait (its Retry-After header), at least 1."""
    headers = getattr(error.response, "headers", None) or {}
    raw = next((v for k, v in headers.items() if str(k).lower() == "retry-after"), None)
    if isinstance(raw, list):
        raw = raw[0] if raw else None
    try:
        return max(1.0, float(str(raw)))
    except ValueError:
        return DEFAULT_RETRY_AFTER


def is_rate_limited(*, error: SlackApiError) -> bool:
    """A 429 (Slack's rate limit), not any other refusal."""
    return getattr(error.response, "status_code", 200) == 429


class Pacer:
    """Waits out Slack's 429s on the caller's thread and remembers each wait per (workspace,
    method): the next call of that method waits first instead of asking into a 429, and later
    calls keep the last Retry-After apart.

    Thread-safe; the waits hold no lock. `halt` ends every wait at once (the process is
    stopping): the call raises ChatError("stopping").
    """

    def __init__(
        self,
        *,
        cap_seconds: float = CAP_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """Give up on a call after `cap_seconds` of waiting; `clock` in seconds (monotonic)."""
        self.cap_seconds = cap_seconds
        self.clock = clock
        self._lock = threading.Lock()
        self._not_before: dict[tuple[str, str], float] = {}
        # The last Retry-After of each (workspace, method): calls after it keep that far apart
        # (under 1 a minute, one 429 teaches the pace for the life of the process).
        self._spacing: dict[tuple[str, str], float] = {}
        self._stopping = threading.Event()

    def halt(self) -> None:
        """End every wait now, and refuse to wait from now on."""
        self._stopping.set()

    def not_before(self, *, workspace: str, method: str) -> float:
        """The clock reading before which the method is not asked again (0: any time)."""
        with self._lock:
            return self._not_before.get((workspace, method), 0.0)

    def call(
        self, *, workspace: str, method: str, ask: Callable[[], SlackResponse]
    ) -> SlackResponse:
        """`ask()`'s answer, after waiting out the method's remembered wait and any 429s;
        ChatError("ratelimited") past the cap, ChatError("stopping") once halted. Any other
        SlackApiError is raised as it came."""
        key = (workspace, method)
        deadline = self.clock() + self.cap_seconds
        while True:
            self._wait(until=self.not_before(workspace=workspace, method=method), by=deadline)
            try:
                answer = ask()
            except SlackApiError as exc:
                if not is_rate_limited(error=exc):
                    raise
                seconds = retry_after(error=exc)
            else:
                with self._lock:
                    spacing = self._spacing.get(key)
                    if spacing is not None:
                        self._not_before[key] = self.clock() + spacing
                return answer
            log.info("Slack rate-limited %s in %s: waiting %.0f s", method, workspace, seconds)
            with self._lock:
                until = self.clock() + seconds
                self._not_before[key] = max(self._not_before.get(key, 0.0), until)
                self._spacing[key] = seconds

    def _wait(self, *, until: float, by: float) -> None:
        """Sleep until `until` (a clock reading), unless it is past `by` or a halt comes."""
        if self._stopping.is_set():
            raise stopping_error()
        if until > by:
            raise ChatError(
                code="ratelimited",
                hint="Slack kept rate-limiting the read-back; it is tried again at the next run",
                posted_nothing=True,
            )
        remaining = until - self.clock()
        if remaining > 0 and self._stopping.wait(remaining):
            raise stopping_error()


def stopping_error() -> ChatError:
    """What a call waiting on Slack's limits raises when the process stops."""
    return ChatError(
        code="stopping",
        hint="the process is stopping; read again at the next start",
        posted_nothing=True,
    )
