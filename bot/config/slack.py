"""Slack's settings: the tokens of one workspace, the Web API URL, and distribution (OAuth, many
workspaces, tokens encrypted at rest). Read by bot.config.settings; frozen."""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

DEFAULT_API_URL = "https://slack.com/api/"
# What the bot asks for when a workspace installs it (manifest-distribution.yml says the same).
DISTRIBUTION_SCOPES = (
    "chat:write",
    "commands",
    "channels:history",
    "groups:history",
    "channels:read",
    "groups:read",
    "reactions:read",
    "users:read",
    "im:write",
)

SLACK_VARIABLES: dict[str, str] = {
    "SLACK_BOT_TOKEN": "Bot token (xoxb-...). Without Slack tokens the bot runs on the console.",
    "SLACK_APP_TOKEN": "App-level token (xapp-...) with connections:write, for Socket Mode.",
    "SLACK_SIGNING_SECRET": "Signing secret, for HTTP mode (POST /slack/events).",
    "SLACK_API_URL": f"Web API base URL (default {DEFAULT_API_URL}; GovSlack differs).",
    "SLACK_CLIENT_ID": "Client ID: with the secret, many workspaces install the app by OAuth.",
    "SLACK_CLIENT_SECRET": "Client Secret of the app, for OAuth distribution.",
    "PAPERCLUB_SECRET_KEY": "Fernet keys sealing tokens and Zotero keys, newest first, "
    "comma-separated.",
    "PAPERCLUB_SLACK_HISTORY_LIMITS": "tiers or non-marketplace (1 history call a minute, 15 "
    "messages a page); default: non-marketplace with SLACK_CLIENT_ID, else tiers.",
}
# Slack's limits on conversations.history and conversations.replies (bot.slack.pacing reads
# the same names): its rate tiers, or those of an app distributed outside the Marketplace.
HISTORY_LIMITS = ("tiers", "non-marketplace")
_GetFn = Callable[[str], "str | None"]


class SlackConfigError(ValueError):
    """A Slack setting is missing or malformed (bot.config.settings raises its ConfigError)."""


@dataclass(frozen=True, slots=True)
class Distribution:
    """OAuth distribution: the app's credentials, the keys sealing its stored tokens (the first
    encrypts, every one decrypts, so old keys keep working while tokens are rotated), the
    scopes asked for and Slack's authorize page (beside SLACK_API_URL, so tests move both)."""

    client_id: str
    client_secret: str = field(repr=False)
    secret_keys: tuple[str, ...] = field(repr=False)
    authorize_url: str = "https://slack.com/oauth/v2/authorize"
    scopes: tuple[str, ...] = DISTRIBUTION_SCOPES


def is_fernet_key(*, text: str) -> bool:
    """A Fernet key: 32 bytes in URL-safe base64 (44 characters)."""
    try:
        return len(base64.urlsafe_b64decode(text.encode("ascii"))) == 32 and len(text) == 44
    except (binascii.Error, UnicodeEncodeError, ValueError):
        return False


def secret_keys(*, text: str | None) -> tuple[str, ...]:
    """PAPERCLUB_SECRET_KEY: one or more Fernet keys, newest first."""
    keys = tuple(k.strip() for k in (text or "").split(",") if k.strip())
    for n, key in enumerate(keys, start=1):
        if not is_fernet_key(text=key):
            # Never echo a key, not even a malformed one: it may be most of a real key.
            raise SlackConfigError(
                f"PAPERCLUB_SECRET_KEY: key {n} is not a Fernet key (44 characters of URL-safe "
                "base64; make one with `paperclub secrets new-key`)."
            )
    return keys


def slack_settings(*, get: _GetFn) -> dict[str, Any]:
    """The Settings fields of Slack, checked, naming the variable on any error."""
    bot_token = get("SLACK_BOT_TOKEN")
    if bot_token and not bot_token.startswith("xoxb-"):
        raise SlackConfigError(
            "SLACK_BOT_TOKEN should start with xoxb- (the Bot User OAuth Token)."
        )
    app_token = get("SLACK_APP_TOKEN")
    if app_token and not app_token.startswith("xapp-"):
        raise SlackConfigError("SLACK_APP_TOKEN should start with xapp- (an app-level token).")
    api_url = get("SLACK_API_URL") or DEFAULT_API_URL
    if not re.match(r"^https?://[^\s/]+", api_url):
        raise SlackConfigError(f"SLACK_API_URL must be an http(s) URL, got {api_url!r}.")
    if not api_url.endswith("/"):
        api_url += "/"
    distribution = _distribution(get=get, api_url=api_url)
    return {
        "slack_bot_token": bot_token,
        "slack_app_token": app_token,
        "slack_signing_secret": get("SLACK_SIGNING_SECRET"),
        "slack_api_url": api_url,
        "slack_distribution": distribution,
        "slack_history_limits": history_limits(
            text=get("PAPERCLUB_SLACK_HISTORY_LIMITS"), distributed=distribution is not None
        ),
    }


def history_limits(*, text: str | None, distributed: bool) -> str:
    """PAPERCLUB_SLACK_HISTORY_LIMITS: `tiers` or `non-marketplace`. Unset: an app installed
    by OAuth is taken to be distributed outside the Marketplace; one workspace's own app is
    internal (customer-built), which keeps the tiers."""
    if not text:
        return HISTORY_LIMITS[1] if distributed else HISTORY_LIMITS[0]
    chosen = text.strip().lower()
    if chosen not in HISTORY_LIMITS:
        raise SlackConfigError(
            f"PAPERCLUB_SLACK_HISTORY_LIMITS must be tiers or non-marketplace, got {text!r}."
        )
    return chosen


def _distribution(*, get: _GetFn, api_url: str) -> Distribution | None:
    """Distribution settings when the client id and secret are set (with a key and no static
    bot token: one process is either one workspace's bot or every workspace's app)."""
    client_id, client_secret = get("SLACK_CLIENT_ID"), get("SLACK_CLIENT_SECRET")
    keys = secret_keys(text=get("PAPERCLUB_SECRET_KEY"))
    if not client_id and not client_secret:
        return None
    if not (client_id and client_secret):
        missing = "SLACK_CLIENT_SECRET" if client_id else "SLACK_CLIENT_ID"
        raise SlackConfigError(f"{missing} is needed too: OAuth distribution takes both.")
    if not re.fullmatch(r"[0-9]+\.[0-9]+", client_id):
        raise SlackConfigError(
            f"SLACK_CLIENT_ID must look like 1234567890.1234567890, got {client_id!r}."
        )
    if not keys:
        raise SlackConfigError(
            "PAPERCLUB_SECRET_KEY is needed with SLACK_CLIENT_ID: installed workspaces' tokens "
            "are stored encrypted (make a key with `paperclub secrets new-key`)."
        )
    if get("SLACK_BOT_TOKEN"):
        raise SlackConfigError(
            "SLACK_BOT_TOKEN and SLACK_CLIENT_ID are both set: choose one workspace (the bot "
            "token) or OAuth distribution (the client id and secret)."
        )
    root = api_url.removesuffix("/").removesuffix("/api")
    return Distribution(
        client_id=client_id,
        client_secret=client_secret,
        secret_keys=keys,
        authorize_url=f"{root}/oauth/v2/authorize",
    )
