"""Slack API errors turned into ChatErrors with a hint an operator can act on."""

from __future__ import annotations

import json
from typing import Any

from slack_sdk.errors import SlackApiError
from slack_sdk.http_retry.handler import RetryHandler
from slack_sdk.http_retry.request import HttpRequest
from slack_sdk.http_retry.response import HttpResponse
from slack_sdk.http_retry.state import RetryState

from bot.ports import ChatError
from bot.services.telemetry import Telemetry

# bot.slack.deps.PLATFORM, which imports this module (through chat.py): named again here.
PLATFORM = "slack"

HINTS = {
    "channel_not_found": "the channel id is wrong, or the channel is private and the bot is "
    "not in it: check PAPERCLUB_CHANNEL and invite the bot",
    "not_in_channel": "invite the bot to the channel (/invite @Paper Club)",
    "is_archived": "the channel is archived; unarchive it or follow another channel",
    "invalid_auth": "SLACK_BOT_TOKEN is not valid: copy the Bot User OAuth Token again",
    "not_authed": "no token was sent: set SLACK_BOT_TOKEN",
    "token_revoked": "the bot token was revoked: reinstall the app and update SLACK_BOT_TOKEN",
    "account_inactive": "the app was uninstalled or the token deactivated: reinstall the app",
    "missing_scope": "the app lacks a scope (im:write for direct messages?): reinstall it "
    "from manifest.yml",
    "ratelimited": "Slack kept rate-limiting; the post will be retried",
    "msg_too_long": "the message was too long for Slack",
    "invalid_blocks": "Slack rejected the message layout",
    "user_not_found": "no such member in this workspace (the id is wrong, or they left)",
    "user_disabled": "the member's account is deactivated",
    "cannot_dm_bot": "a bot user cannot be sent a direct message",
}


# Slack's docs say of these that some part of the call may have succeeded: a message may
# have been stored, so they are unknown outcomes, never "nothing was posted".
UNKNOWN_OUTCOME = frozenset(
    {"internal_error", "fatal_error", "service_unavailable", "request_timeout"}
)


def chat_error(*, error: SlackApiError) -> ChatError:
    """A ChatError for an `ok: false` answer or an HTTP error from Slack."""
    response = error.response
    status = getattr(response, "status_code", 200)
    code = str(response.get("error") or f"http_{status}") if response is not None else "unknown"
    # An ok:false answer with status 200 (or a 429) means Slack did nothing; a 5xx may hide
    # a message that was stored before the server failed.
    posted_nothing = status < 500 and code not in UNKNOWN_OUTCOME
    return ChatError(
        code=code,
        hint=HINTS.get(code, "see Slack's API docs for this error"),
        posted_nothing=posted_nothing,
    )


def connection_error(*, error: Exception) -> ChatError:
    """A ChatError for a timeout or a dropped connection: the outcome is unknown."""
    return ChatError(
        code="connection_error",
        hint=f"could not reach Slack ({type(error).__name__}); check SLACK_API_URL and the network",
        posted_nothing=False,
    )


def answer_error(*, response: HttpResponse) -> str | None:
    """The error code of one answer from the Web API (`ok: false`, or an HTTP error), or None
    when it is no error."""
    body: dict[str, Any] = response.body or {}
    if response.status_code < 400 and body.get("ok") is not False:
        return None
    if not body and response.data:  # an HTTP error's body comes unparsed
        try:
            parsed = json.loads(response.data)
        except ValueError:  # an HTML error page from a proxy: its status says enough
            parsed = None
        body = parsed if isinstance(parsed, dict) else {}
    return str(body.get("error") or f"http_{response.status_code}")


class CountErrors(RetryHandler):
    """First of a client's retry handlers, it sees every answer, the ones retried too (a 429
    that the next handler waits out is an error Slack gave all the same), counts the errors
    for the metrics, and never asks for a retry itself."""

    def __init__(self, *, telemetry: Telemetry) -> None:
        """Count into `telemetry` (the club's)."""
        super().__init__()
        self.telemetry = telemetry

    def __deepcopy__(self, memo: dict[int, Any]) -> CountErrors:
        """Itself: Bolt deep-copies the client for each request, and every copy must count
        into the one telemetry (which holds locks, and cannot be copied anyway)."""
        return self

    def can_retry(
        self,
        *,
        state: RetryState,
        request: HttpRequest,
        response: HttpResponse | None = None,
        error: Exception | None = None,
    ) -> bool:
        """Count the answer's error, if it is one; no retry (the handlers after this decide)."""
        code = answer_error(response=response) if response is not None else None
        if code is not None:
            self.telemetry.api_error(platform=PLATFORM, code=code)
        return False
