"""The /paperclub slash command."""

from __future__ import annotations

from typing import Any

from slack_bolt import Ack, App, Respond

from bot.slack.deps import SlackDeps
from bot.slack.text import typed

COMMAND = "/paperclub"


def register(*, app: App, deps: SlackDeps) -> None:
    """Listen for /paperclub."""

    def acknowledge(ack: Ack) -> None:
        """Ack at once: Slack wants an answer within 3 seconds."""
        ack()

    def answer(command: dict[str, Any], respond: Respond) -> None:
        """Run the subcommand after the ack and answer through response_url."""
        reply = deps.room.command(
            channel=deps.channel(channel_id=command.get("channel_id")),
            user=str(command.get("user_id", "")),
            text=typed(str(command.get("text", ""))),
        )
        text, shown = deps.chat.answer(reply=reply)
        respond(text=text, blocks=shown, response_type="ephemeral")

    app.command(COMMAND)(ack=acknowledge, lazy=[answer])
