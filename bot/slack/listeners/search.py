"""The 'More results' button under search results."""

from __future__ import annotations

from typing import Any

from slack_bolt import Ack, App, Respond

from bot.services import commands, search
from bot.slack import ids
from bot.slack.deps import SlackDeps
from bot.wording import archive


def register(*, app: App, deps: SlackDeps) -> None:
    """Listen for the button; the next page replaces the current one."""

    def acknowledge(ack: Ack) -> None:
        """Ack at once; the page follows through response_url."""
        ack()

    def next_page(body: dict[str, Any], action: dict[str, Any], respond: Respond) -> None:
        """Run the same search from the offset the button carries, as this channel sees it."""
        carried = archive.read_more_value(value=action.get("value"))
        if carried is None:
            text, shown = deps.chat.render(message=archive.STALE_BUTTON)
            respond(text=text, blocks=shown, response_type="ephemeral", replace_original=False)
            return
        channel = deps.channel(channel_id=(body.get("channel") or {}).get("id"))
        result = search.search(
            uow=deps.shared.uow, text=carried[0], offset=carried[1], viewer=channel
        )
        reply = commands.search_reply(result=result)
        text, shown = deps.chat.answer(reply=reply)
        respond(text=text, blocks=shown, response_type="ephemeral", replace_original=True)

    app.action(ids.action_id(action=archive.SEARCH_MORE))(ack=acknowledge, lazy=[next_page])
