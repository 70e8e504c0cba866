"""The 'More results' and 'Did you mean' buttons under search results."""

from __future__ import annotations

from typing import Any

from slack_bolt import Ack, App, Respond

from bot.ports import ArchiveUnavailable
from bot.slack import ids
from bot.slack.deps import SlackDeps
from bot.wording import archive, replies


def register(*, app: App, deps: SlackDeps) -> None:
    """Listen for the button; the next page replaces the current one."""

    def acknowledge(ack: Ack) -> None:
        """Ack at once; the page follows through response_url."""
        ack()

    def next_page(body: dict[str, Any], action: dict[str, Any], respond: Respond) -> None:
        """Run the same search from the offset the button carries, as this channel sees it."""
        channel = deps.channel(channel_id=(body.get("channel") or {}).get("id"))
        value = action.get("value")
        try:
            reply = deps.room.more_results(value=value, viewer=channel)
        except ArchiveUnavailable:  # logged where it was raised (bot/db); this page stays
            text, shown = deps.chat.render(message=replies.NOT_AVAILABLE)
            respond(text=text, blocks=shown, response_type="ephemeral", replace_original=False)
            return
        if reply is None:
            text, shown = deps.chat.render(message=archive.STALE_BUTTON)
            respond(text=text, blocks=shown, response_type="ephemeral", replace_original=False)
            return
        text, shown = deps.chat.answer(reply=reply)
        respond(text=text, blocks=shown, response_type="ephemeral", replace_original=True)

    app.action(ids.action_id(action=archive.SEARCH_MORE))(ack=acknowledge, lazy=[next_page])
    # "Did you mean": the corrected query's first page, through the same path.
    app.action(ids.action_id(action=archive.SEARCH_SPELLED))(ack=acknowledge, lazy=[next_page])
