"""Vote buttons and emoji reactions on daily posts."""

from __future__ import annotations

from typing import Any

from slack_bolt import Ack, App

from bot.slack import ids
from bot.slack.deps import SlackDeps


def register(*, app: App, deps: SlackDeps) -> None:
    """Listen for the two vote buttons and for reactions."""

    def on_button(ack: Ack, body: dict[str, Any], action: dict[str, Any]) -> None:
        """Store the vote, then ack: an acknowledged vote is on disk."""
        post_id = ids.decode_post_id(value=action.get("value"))
        user = str((body.get("user") or {}).get("id", ""))
        value = 1 if action.get("action_id") == ids.VOTE_UP else -1
        if post_id is not None and user:
            # A click has no event id; its action_ts is unique per click, so a redelivery
            # of the same click is recognised.
            token = str(action.get("action_ts", ""))
            deps.room.click(post_id=post_id, user=user, value=value, token=token)
        ack()

    app.action(ids.VOTE_UP)(on_button)
    app.action(ids.VOTE_DOWN)(on_button)

    def on_reaction(ack: Ack, body: dict[str, Any], event: dict[str, Any]) -> None:
        """A reaction counts as a vote on a daily post; anywhere else it is ignored."""
        item = event.get("item") or {}
        if item.get("type") == "message" and event.get("user"):
            deps.room.react(
                channel=deps.channel(channel_id=item.get("channel")),
                message_id=str(item.get("ts", "")),
                user=str(event["user"]),
                reaction=str(event.get("reaction", "")),
                added=event.get("type") == "reaction_added",
                delivery=body.get("event_id"),
                stamp=str(event.get("event_ts")),
            )
        ack()

    app.event("reaction_added")(on_reaction)
    app.event("reaction_removed")(on_reaction)
