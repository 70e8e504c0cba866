"""The Slack app manifests ask for what the bot uses, and both modes agree."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _values(text: str, key: str) -> set[str]:
    """Items listed under `key:` (a YAML list of plain scalars)."""
    block = re.search(rf"^\s*{key}:\n((?:\s+- .*\n)+)", text, flags=re.MULTILINE)
    assert block, key
    return {line.split("- ", 1)[1].split("#")[0].strip() for line in block.group(1).splitlines()}


def test_manifests_list_the_scopes_events_and_command() -> None:
    socket = (ROOT / "manifest.yml").read_text()
    http = (ROOT / "manifest-http.yml").read_text()
    for text in (socket, http):
        assert {"chat:write", "commands", "channels:history", "reactions:read", "users:read"} <= (
            _values(text, "bot")
        )
        assert "im:write" in _values(text, "bot")  # conversations.open, for direct messages
        assert {"message.channels", "reaction_added", "reaction_removed"} <= _values(
            text, "bot_events"
        )
        assert "command: /paperclub" in text
    assert _values(socket, "bot") == _values(http, "bot")
    assert "socket_mode_enabled: true" in socket and "socket_mode_enabled: false" in http
    assert http.count("/slack/events") == 3


def test_the_distribution_manifest_asks_what_the_install_asks() -> None:
    """Its scopes are the ones the OAuth flow requests; it redirects to our callback and sends
    the uninstall events."""
    from bot.config.slack import DISTRIBUTION_SCOPES

    text = (ROOT / "manifest-distribution.yml").read_text()
    http = (ROOT / "manifest-http.yml").read_text()
    assert _values(text, "bot") == set(DISTRIBUTION_SCOPES) == _values(http, "bot")
    assert _values(text, "redirect_urls") == {"https://paperclub.example.org/slack/oauth_redirect"}
    assert {"app_home_opened", "app_uninstalled", "tokens_revoked"} <= _values(text, "bot_events")
    assert _values(http, "bot_events") <= _values(text, "bot_events")
    assert "command: /paperclub" in text and text.count("/slack/events") == 3
    assert "socket_mode_enabled: false" in text
