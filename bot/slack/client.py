"""slack_sdk's WebClient as the bot makes it: Slack's retry handlers, errors counted, and its
own identity asked once."""

from __future__ import annotations

from typing import Any

from slack_sdk import WebClient
from slack_sdk.http_retry.builtin_handlers import (
    ConnectionErrorRetryHandler,
    RateLimitErrorRetryHandler,
    ServerErrorRetryHandler,
)
from slack_sdk.web import SlackResponse

from bot.services.telemetry import Telemetry
from bot.slack.errors import CountErrors


class IdentityClient(WebClient):
    """A WebClient that asks auth.test about its own token once and remembers the answer.

    The plug-in checks the token at start, then Bolt's App checks it again (and keeps that
    answer for the life of the process): one call serves both.
    """

    _identity: SlackResponse | None = None

    def auth_test(self, **kwargs: Any) -> SlackResponse:
        """auth.test for this client's token, asked once; any other token is asked each time."""
        if set(kwargs) - {"token"} or kwargs.get("token", self.token) != self.token:
            return super().auth_test(**kwargs)
        if self._identity is None:
            self._identity = super().auth_test()
        return self._identity


def make_client(
    *,
    token: str | None,
    base_url: str,
    telemetry: Telemetry,
    idempotent_only: bool = False,
    rate_limit_retries: bool = True,
) -> WebClient:
    """A WebClient for SLACK_API_URL with Slack's retry handlers; its API errors are counted
    into `telemetry`.

    `idempotent_only` leaves out the server-error and connection retries: a chat.postMessage
    that timed out may have posted, so the poster looks in history before trying again.
    `rate_limit_retries` False leaves 429s to the caller (the read-back's Pacer waits them out
    on its own thread, and remembers the wait).
    """
    # CountErrors first: it sees each answer before a retry handler takes it over.
    handlers: list[Any] = [CountErrors(telemetry=telemetry)]
    if rate_limit_retries:
        handlers.append(RateLimitErrorRetryHandler(max_retry_count=5))
    if not idempotent_only:
        handlers += [ConnectionErrorRetryHandler(), ServerErrorRetryHandler(max_retry_count=2)]
    return IdentityClient(token=token, base_url=base_url, timeout=15, retry_handlers=handlers)
