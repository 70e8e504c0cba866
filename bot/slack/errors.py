"""Slack API errors turned into ChatErrors with a hint an operator can act on."""

from __future__ import annotations

from slack_sdk.errors import SlackApiError

from bot.ports import ChatError

HINTS = {
    "channel_not_found": "the channel id is wrong, or the channel is private and the bot is "
    "not in it: check PAPERCLUB_CHANNEL and invite the bot",
    "not_in_channel": "invite the bot to the channel (/invite @Paper Club)",
    "is_archived": "the channel is archived; unarchive it or follow another channel",
    "invalid_auth": "SLACK_BOT_TOKEN is not valid: copy the Bot User OAuth Token again",
    "not_authed": "no token was sent: set SLACK_BOT_TOKEN",
    "token_revoked": "the bot token was revoked: reinstall the app and update SLACK_BOT_TOKEN",
    "account_inactive": "the app was uninstalled or the token deactivated: reinstall the app",
    "missing_scope": "the app lacks a scope: reinstall it from manifest.yml",
    "ratelimited": "Slack kept rate-limiting; the post will be retried",
    "msg_too_long": "the message was too long for Slack",
    "invalid_blocks": "Slack rejected the message layout",
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
        code=code, hint=HINTS.get(code, "see Slack's API docs for this error"),
        posted_nothing=posted_nothing,
    )  # fmt: skip


def connection_error(*, error: Exception) -> ChatError:
    """A ChatError for a timeout or a dropped connection: the outcome is unknown."""
    return ChatError(
        code="connection_error",
        hint=f"could not reach Slack ({type(error).__name__}); check SLACK_API_URL and the network",
        posted_nothing=False,
    )
