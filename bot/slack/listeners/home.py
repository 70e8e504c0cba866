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
from bot.messages import as_plain
from bot.ports import ArchiveUnavailable
from bot.services import home
from bot.slack import home as slack_home
from bot.slack import ids
from bot.slack.deps import SlackDeps
from bot.slack.home_modal import FIELD_BLOCKS, submitted
from bot.wording import replies


def _user(body: dict[str, Any]) -> str:
    """Who clicked or submitted."""
    return str((body.get("user") or {}).get("id") or "")


def _form_channel(*, deps: SlackDeps, view: dict[str, Any]) -> ChannelKey:
    """The channel a schedule form is about (it rides in the view's private metadata)."""
    return deps.channel(channel_id=slack_home.channel_id(value=view.get("private_metadata")))


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
        user = _user(body)
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

    def read(body: dict[str, Any], view: dict[str, Any]) -> str | dict[str, str]:
        """The `schedule` subcommand the form stands for, or its errors by block id."""
        time, zone, days = submitted(view=view)
        outcome = deps.room.read_form(
            channel=_form_channel(deps=deps, view=view),
            user=_user(body),
            time=time,
            zone=zone,
            days=days,
        )
        if isinstance(outcome, dict):
            return {FIELD_BLOCKS[field]: text for field, text in outcome.items()}
        return outcome

    def check(ack: Ack, body: dict[str, Any], view: dict[str, Any]) -> None:
        """Close the form when it is valid; else keep it open with the errors beside the fields
        (or, the archive unavailable, "not saved" beside the first: submitting again retries)."""
        try:
            outcome = read(body, view)
        except ArchiveUnavailable:
            outcome = {FIELD_BLOCKS["time"]: as_plain(message=replies.NOT_SAVED)}
        if isinstance(outcome, dict):
            ack(response_action="errors", errors=outcome)
        else:
            ack()

    def save(body: dict[str, Any], view: dict[str, Any], client: WebClient) -> None:
        """Apply a valid form as `/paperclub schedule` and show the answer on the Home."""
        try:
            outcome = read(body, view)
        except ArchiveUnavailable:
            return  # the form stayed open with "not saved"; nothing changed
        if isinstance(outcome, dict):
            return  # the form stayed open with its errors; nothing changed
        channel = _form_channel(deps=deps, view=view)
        reply = deps.room.save_schedule(channel=channel, user=_user(body), command=outcome)
        try:
            slack_home.publish(client=client, deps=deps, user=_user(body), notice=reply.message)
        except ArchiveUnavailable:
            slack_home.unavailable(client=client, deps=deps, user=_user(body))

    app.view(ids.SCHEDULE_VIEW)(ack=check, lazy=[save])
