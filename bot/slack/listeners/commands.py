"""The /paperclub slash command."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from slack_bolt import Ack, App, Respond

from bot.services import commands
from bot.slack import blocks
from bot.slack.search_blocks import search_message

if TYPE_CHECKING:
    from bot.slack.app import SlackDeps

COMMAND = "/paperclub"
PLATFORM = "slack"


def register(*, app: App, deps: SlackDeps) -> None:
    """Listen for /paperclub."""

    def acknowledge(ack: Ack) -> None:
        """Ack at once: Slack wants an answer within 3 seconds."""
        ack()

    def answer(command: dict[str, Any], respond: Respond) -> None:
        """Run the subcommand after the ack and answer through response_url."""
        call = commands.Invocation(
            uow=deps.uow,
            chat=deps.chat,
            poster=deps.poster,
            platform=PLATFORM,
            team_id=str(command.get("team_id", "")),
            channel_id=str(command.get("channel_id", "")),
            user=str(command.get("user_id", "")),
            admins=deps.admins,
            defaults=deps.defaults,
            now=deps.clock.now(),
            lookup=deps.lookup,
        )
        reply = commands.handle(call=call, text=str(command.get("text", "")))
        if reply.reschedule:
            deps.on_reschedule()
        if reply.search is not None:
            text, shown = search_message(result=reply.search)
            respond(text=text, blocks=shown, response_type="ephemeral")
            return
        respond(text=reply.text, blocks=blocks.notice(text=reply.text), response_type="ephemeral")

    app.command(COMMAND)(ack=acknowledge, lazy=[answer])
