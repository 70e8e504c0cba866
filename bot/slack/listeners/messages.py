"""Messages: replies in a daily post's thread are comments; every other message is acked."""

from __future__ import annotations

from typing import Any

from slack_bolt import Ack, App, BoltResponse

from bot.ports import ArchiveUnavailable
from bot.services.thread_event import ThreadEvent
from bot.slack.deps import SlackDeps
from bot.slack.listeners.outage import not_stored
from bot.slack.text import typed
from bot.slack.thread_rules import REPLY_SUBTYPES, by_a_person


def register(*, app: App, deps: SlackDeps) -> None:
    """One listener for every message subtype, so none is ever answered 404."""

    @app.event("message")
    def on_message(ack: Ack, body: dict[str, Any], event: dict[str, Any]) -> BoltResponse | None:
        """Store, then ack: an acknowledged comment is on disk (one the archive could not
        take is not acked, so Slack delivers it again)."""
        try:
            apply(deps=deps, event=event, delivery=body.get("event_id"))
        except ArchiveUnavailable:
            return not_stored(body=body)
        ack()
        return None


def apply(*, deps: SlackDeps, event: dict[str, Any], delivery: str | None) -> None:
    """Route a message event to the comment it creates, edits or deletes, if any; `delivery`
    is Slack's event id (the same on every retry), the event's own stamp stands in without."""
    subtype, room = event.get("subtype"), deps.room

    def about(message: dict[str, Any], thread_ts: object, ts: object) -> ThreadEvent:
        """The thread message an event is about."""
        return ThreadEvent(
            channel=deps.channel(channel_id=event.get("channel")),
            thread_id=str(thread_ts),
            message_id=str(ts or ""),
            user=str(message.get("user", "")),
            delivery=delivery,
            stamp=f"{event.get('event_ts')}",
        )

    if subtype in REPLY_SUBTYPES and event.get("thread_ts") and by_a_person(event):
        target = about(event, event["thread_ts"], event.get("ts"))
        room.reply(about=target, text=typed(str(event.get("text", ""))))
    elif subtype == "message_changed":
        message = event.get("message") or {}
        if (
            message.get("subtype") in REPLY_SUBTYPES
            and message.get("thread_ts")
            and by_a_person(message)
        ):
            target = about(message, message["thread_ts"], message.get("ts"))
            room.edit(about=target, text=typed(str(message.get("text", ""))))
    elif subtype == "message_deleted":
        previous = event.get("previous_message") or {}
        if previous.get("thread_ts"):
            ts = event.get("deleted_ts") or previous.get("ts")
            room.delete(about=about(previous, previous["thread_ts"], ts))
