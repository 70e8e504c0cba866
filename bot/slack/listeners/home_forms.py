"""A form the App Home opens (the schedule's, the meeting's), submitted: either kept open with
its errors beside the fields (response_action "errors", in the ack) or saved as the typed
subcommand it stands for, the answer then shown on the Home. Nothing is saved in the ack:
Slack wants it within 3 seconds, so the subcommand runs after it. The archive unavailable,
"not saved" stands beside the first field and submitting again retries."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from slack_bolt import Ack, App
from slack_sdk import WebClient

from bot.domain import ChannelKey
from bot.messages import as_plain
from bot.ports import ArchiveUnavailable
from bot.services.reply import Reply
from bot.slack import home as slack_home
from bot.slack.deps import SlackDeps
from bot.wording import replies

# What a submitted form reads as: the subcommand it stands for, or its errors by block id.
Read = Callable[[ChannelKey, str, dict[str, Any]], str | dict[str, str]]
# What saves a valid form: (channel, user, subcommand) -> the answer.
Save = Callable[[ChannelKey, str, str], Reply]


def user_of(body: dict[str, Any]) -> str:
    """Who clicked or submitted."""
    return str((body.get("user") or {}).get("id") or "")


def form_channel(*, deps: SlackDeps, view: dict[str, Any]) -> ChannelKey:
    """The channel a form is about (it rides in the view's private metadata)."""
    return deps.channel(channel_id=slack_home.channel_id(value=view.get("private_metadata")))


def register_form(
    *, app: App, deps: SlackDeps, callback_id: str, first_block: str, read: Read, save: Save
) -> None:
    """Listen for the submissions of the form `callback_id`; `first_block` carries "not
    saved" when the archive cannot read the form."""

    def outcome_of(body: dict[str, Any], view: dict[str, Any]) -> str | dict[str, str]:
        return read(form_channel(deps=deps, view=view), user_of(body), view)

    def check(ack: Ack, body: dict[str, Any], view: dict[str, Any]) -> None:
        """Close the form when it is valid; else keep it open with the errors beside it."""
        try:
            outcome = outcome_of(body, view)
        except ArchiveUnavailable:
            outcome = {first_block: as_plain(message=replies.NOT_SAVED)}
        if isinstance(outcome, dict):
            ack(response_action="errors", errors=outcome)
        else:
            ack()

    def saved(body: dict[str, Any], view: dict[str, Any], client: WebClient) -> None:
        """Run a valid form as its subcommand and show the answer on the Home."""
        user = user_of(body)
        try:
            outcome = outcome_of(body, view)
        except ArchiveUnavailable:
            return  # the form stayed open with "not saved"; nothing changed
        if isinstance(outcome, dict):
            return  # the form stayed open with its errors; nothing changed
        reply = save(form_channel(deps=deps, view=view), user, outcome)
        try:
            slack_home.publish(client=client, deps=deps, user=user, notice=reply.message)
        except ArchiveUnavailable:
            slack_home.unavailable(client=client, deps=deps, user=user)

    app.view(callback_id)(ack=check, lazy=[saved])
