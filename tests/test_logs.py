"""The log filter: Slack and Discord secrets never reach a log line, whoever logs them."""

from __future__ import annotations

import logging

from bot.logs import RedactSecrets

DISCORD_TOKEN = "MTEwMDAwMDAwMDAwMDAwMDAwMQ.GhT4xk.q1w2e3r4t5y6u7i8o9p0a1s2d3f4g5h6j7k8l9"


def _filtered(msg: str, *args: object) -> str:
    """The message a handler with the filter would write."""
    record = logging.LogRecord("paperclub", logging.INFO, __file__, 1, msg, args, None)
    assert RedactSecrets().filter(record)
    return record.getMessage()


def test_slack_tokens_are_redacted() -> None:
    line = _filtered("token %s and %s", "xoxb-123-456-abc", "xapp-1-A0-xyz")
    assert "123-456" not in line and "A0-xyz" not in line
    assert "xoxb-***" in line and "xapp-***" in line


def test_a_discord_token_is_redacted() -> None:
    line = _filtered("Authorization: Bot %s", DISCORD_TOKEN)
    assert DISCORD_TOKEN not in line and "GhT4xk" not in line
    assert line == "Authorization: Bot [discord token]"


def test_ordinary_lines_pass_unchanged() -> None:
    text = "posted paper 2401.01234 in slack:T01:C0123 (message 1764.000100)"
    assert _filtered(text) == text
