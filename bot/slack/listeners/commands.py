"""The /paperclub slash command."""

from __future__ import annotations

from typing import Any

from slack_bolt import Ack, App, Respond

from bot.services import commands
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
        shared = deps.shared
        call = commands.Invocation(
            uow=shared.uow,
            chat=deps.chat,
            poster=deps.poster,
            channel=deps.channel(channel_id=command.get("channel_id")),
            user=str(command.get("user_id", "")),
            admins=shared.admins,
            defaults=shared.defaults,
            now=shared.clock.now(),
            lookup=shared.lookup,
        )
        reply = commands.handle(call=call, text=typed(str(command.get("text", ""))))
        if reply.reschedule:
            shared.reschedule()
        text, shown = deps.chat.answer(reply=reply)
        respond(text=text, blocks=shown, response_type="ephemeral")

    app.command(COMMAND)(ack=acknowledge, lazy=[answer])
