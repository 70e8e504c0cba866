"""Vote buttons and emoji reactions on daily posts."""

from __future__ import annotations

import logging
import threading
from typing import Any

from slack_bolt import Ack, App, BoltResponse, Respond

from bot.ports import ArchiveUnavailable
from bot.slack import ids
from bot.slack.deps import SlackDeps
from bot.slack.listeners.outage import not_stored

log = logging.getLogger(__name__)


def clicked_in(*, body: dict[str, Any]) -> object:
    """The channel a click came from, as Slack says it (the payload's channel, else its
    container's): never the button's value, which the clicker can write."""
    channel, container = body.get("channel"), body.get("container")
    named = channel.get("id") if isinstance(channel, dict) else None
    return named or (container.get("channel_id") if isinstance(container, dict) else None)


def register(*, app: App, deps: SlackDeps) -> None:
    """Listen for the two vote buttons and for reactions."""

    def on_button(ack: Ack, body: dict[str, Any], action: dict[str, Any], respond: Respond) -> None:
        """Store the vote, then ack: an acknowledged vote is on disk. A vote that was not
        stored (the archive unavailable, a button of another channel) is acked all the same,
        and the person who clicked is told so, alone, through the response_url."""
        post_id = ids.decode_post_id(value=action.get("value"))
        user = str((body.get("user") or {}).get("id", ""))
        value = 1 if action.get("action_id") == ids.VOTE_UP else -1
        answer = None
        if post_id is not None and user:
            # A click has no event id; its action_ts is unique per click, so a redelivery
            # of the same click is recognised.
            token = str(action.get("action_ts", ""))
            channel = deps.channel(channel_id=clicked_in(body=body))
            outcome = deps.room.click(
                channel=channel, post_id=post_id, user=user, value=value, token=token
            )
            answer = outcome.answer
        ack()
        if answer is not None:
            text, shown = deps.chat.render(message=answer)

            def tell() -> None:
                """Only the clicker sees it; the message they clicked stays as it is."""
                try:
                    respond(
                        text=text, blocks=shown, response_type="ephemeral", replace_original=False
                    )
                except Exception as error:  # the vote's outcome stands; the log says why
                    # The type only: an error may quote the response_url (a credential).
                    log.warning(
                        "could not tell %s about their click: %s", user, type(error).__name__
                    )

            # After the ack, not before it: Bolt sends the ack when this listener returns
            # (process_before_response), and the click has already waited for the archive.
            threading.Thread(target=tell, name="vote-answer", daemon=True).start()

    app.action(ids.VOTE_UP)(on_button)
    app.action(ids.VOTE_DOWN)(on_button)

    def on_reaction(ack: Ack, body: dict[str, Any], event: dict[str, Any]) -> BoltResponse | None:
        """A reaction counts as a vote on a daily post; anywhere else it is ignored."""
        item = event.get("item") or {}
        if item.get("type") == "message" and event.get("user"):
            try:
                deps.room.react(
                    channel=deps.channel(channel_id=item.get("channel")),
                    message_id=str(item.get("ts", "")),
                    user=str(event["user"]),
                    reaction=str(event.get("reaction", "")),
                    added=event.get("type") == "reaction_added",
                    delivery=body.get("event_id"),
                    stamp=str(event.get("event_ts")),
                )
            except ArchiveUnavailable:
                return not_stored(body=body)
        ack()
        return None

    app.event("reaction_added")(on_reaction)
    app.event("reaction_removed")(on_reaction)
