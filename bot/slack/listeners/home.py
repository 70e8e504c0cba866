"""The App Home: published when the person opens the tab and after each of their own Home
actions (buttons, the schedule form). What others do elsewhere shows the next time the tab is
opened: Slack sends app_home_opened every time, and nobody watches a tab they are not on.

When the archive cannot be read or written, the Home says so instead (a submitted form keeps
its fields, with the words beside them), never Bolt's 500 or a traceback; the cause is logged
where it was raised, in bot/db."""

from __future__ import annotations

from typing import Any

from slack_bolt import Ack, App
from slack_sdk import WebClient

from bot.domain import ChannelKey
from bot.ports import ArchiveUnavailable
from bot.services import home
from bot.services.reply import Reply
from bot.slack import home as slack_home
from bot.slack import ids
from bot.slack.deps import SlackDeps
from bot.slack.home_modal import FIELD_BLOCKS, submitted
from bot.slack.listeners.home_forms import register_form, user_of


def register(*, app: App, deps: SlackDeps) -> None:
    """Listen for the tab, its buttons and the schedule form."""

    def acknowledge(ack: Ack) -> None:
        """Ack at once; the Home is published after."""
        ack()

    def opened(event: dict[str, Any], client: WebClient) -> None:
        """The Home tab was opened (the Messages tab sends the same event: nothing to do)."""
        if event.get("tab") == "home" and event.get("user"):
            user = str(event["user"])
            try:
                slack_home.publish(client=client, deps=deps, user=user)
            except ArchiveUnavailable:
                slack_home.unavailable(client=client, deps=deps, user=user)

    app.event("app_home_opened")(ack=acknowledge, lazy=[opened])

    def pressed(body: dict[str, Any], action: dict[str, Any], client: WebClient) -> None:
        """A Home button; the Home says the archive is unavailable when it is."""
        user = user_of(body)
        if not user:
            return
        try:
            act(body=body, action=action, client=client, user=user)
        except ArchiveUnavailable:
            slack_home.unavailable(client=client, deps=deps, user=user)

    def act(*, body: dict[str, Any], action: dict[str, Any], client: WebClient, user: str) -> None:
        """Run the button's subcommand (admin check included) and show what it did."""
        channel = slack_home.channel_id(value=action.get("value"))
        if channel is None:  # not one of our buttons' values: show the Home as it is
            slack_home.publish(client=client, deps=deps, user=user)
            return
        name = str(action.get("action_id", "")).removeprefix(ids.action_id(action=""))
        if name == home.SCHEDULE_ACTION:
            trigger = str(body.get("trigger_id") or "")
            notice = slack_home.open_form(
                client=client, deps=deps, user=user, channel=channel, trigger_id=trigger
            )
            if notice is not None:
                slack_home.publish(client=client, deps=deps, user=user, notice=notice)
            return
        key = deps.channel(channel_id=channel)
        reply = deps.room.home_action(channel=key, user=user, action=name)
        notice = reply.message if reply is not None else None
        slack_home.publish(client=client, deps=deps, user=user, notice=notice)

    for action in (*home.ACTIONS, home.SCHEDULE_ACTION):
        app.action(ids.action_id(action=action))(ack=acknowledge, lazy=[pressed])

    def read(channel: ChannelKey, user: str, view: dict[str, Any]) -> str | dict[str, str]:
        """The `schedule` subcommand the form stands for, or its errors by block id."""
        time, zone, days = submitted(view=view)
        outcome = deps.room.read_form(channel=channel, user=user, time=time, zone=zone, days=days)
        if isinstance(outcome, dict):
            return {FIELD_BLOCKS[field]: text for field, text in outcome.items()}
        return outcome

    def save(channel: ChannelKey, user: str, command: str) -> Reply:
        """Apply a valid form as `/paperclub schedule`."""
        return deps.room.save_schedule(channel=channel, user=user, command=command)

    register_form(
        app=app,
        deps=deps,
        callback_id=ids.SCHEDULE_VIEW,
        first_block=FIELD_BLOCKS["time"],
        read=read,
        save=save,
    )
