"""The 'More results' button under search results."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from slack_bolt import Ack, App, Respond

from bot.services import search
from bot.slack import ids
from bot.slack.search_blocks import read_more_value, search_message

if TYPE_CHECKING:
    from bot.slack.app import SlackDeps


def register(*, app: App, deps: SlackDeps) -> None:
    """Listen for the button; the next page replaces the current one."""

    def acknowledge(ack: Ack) -> None:
        """Ack at once; the page follows through response_url."""
        ack()

    def next_page(action: dict[str, Any], respond: Respond) -> None:
        """Run the same search from the offset the button carries."""
        carried = read_more_value(value=action.get("value"))
        if carried is None:
            respond(text="That button no longer works; please search again.",
                    response_type="ephemeral", replace_original=False)  # fmt: skip
            return
        text, blocks = search_message(
            result=search.search(uow=deps.uow, text=carried[0], offset=carried[1])
        )
        respond(text=text, blocks=blocks, response_type="ephemeral", replace_original=True)

    app.action(ids.SEARCH_MORE)(ack=acknowledge, lazy=[next_page])
