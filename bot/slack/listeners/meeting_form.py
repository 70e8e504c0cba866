"""The App Home's meeting form: the "Meeting…" button opens it for an admin (anyone else reads
why not on their Home), and a submitted one is either kept open with its errors beside the
fields (response_action "errors", in the ack) or saved as `/paperclub meeting set`, the answer
then shown on the Home. Nothing is saved in the ack: Slack wants it within 3 seconds, so the
subcommand runs after it, as the schedule form's does (bot/slack/listeners/home.py)."""

from __future__ import annotations

import logging
from typing import Any
from urllib.error import URLError

from slack_bolt import Ack, App
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from bot.domain import ChannelKey
from bot.messages import as_plain
from bot.ports import ArchiveUnavailable
from bot.services.home import MEETING_ACTION
from bot.services.meeting_form import MeetingForm
from bot.slack import home as slack_home
from bot.slack import ids
from bot.slack.deps import SlackDeps
from bot.slack.meeting_modal import FIELD_BLOCKS, meeting_modal, submitted
from bot.wording import replies

log = logging.getLogger(__name__)


def _user(body: dict[str, Any]) -> str:
    """Who clicked or submitted."""
    return str((body.get("user") or {}).get("id") or "")


def _open(
    *, client: WebClient, deps: SlackDeps, user: str, channel: ChannelKey, trigger: str
) -> None:
    """Open the form for an admin; else show why not on the Home."""
    form = deps.room.meeting_forms.opened(channel=channel, user=user)
    if not isinstance(form, MeetingForm):
        slack_home.publish(client=client, deps=deps, user=user, notice=form.message)
        return
    try:
        client.views_open(trigger_id=trigger, view=meeting_modal(form=form, names=deps.chat.names))
    except (SlackApiError, URLError, OSError) as exc:
        log.warning("views.open failed for %s: %s", user, exc)


def register(*, app: App, deps: SlackDeps) -> None:
    """Listen for the Home's "Meeting…" button and the form it opens."""

    def acknowledge(ack: Ack) -> None:
        """Ack at once; the form opens after."""
        ack()

    def pressed(body: dict[str, Any], action: dict[str, Any], client: WebClient) -> None:
        """Open the form of the channel the button names (the admin check is the core's)."""
        user = _user(body)
        if not user:
            return
        found = slack_home.channel_id(value=action.get("value"))
        try:
            if found is None:  # not one of our buttons' values: the Home as it is
                slack_home.publish(client=client, deps=deps, user=user)
                return
            channel = deps.channel(channel_id=found)
            trigger = str(body.get("trigger_id") or "")
            _open(client=client, deps=deps, user=user, channel=channel, trigger=trigger)
        except ArchiveUnavailable:
            slack_home.unavailable(client=client, deps=deps, user=user)

    app.action(ids.action_id(action=MEETING_ACTION))(ack=acknowledge, lazy=[pressed])

    def channel_of(view: dict[str, Any]) -> ChannelKey:
        """The channel a form is about (it rides in the view's private metadata)."""
        return deps.channel(channel_id=slack_home.channel_id(value=view.get("private_metadata")))

    def read(body: dict[str, Any], view: dict[str, Any]) -> str | dict[str, str]:
        """The `meeting set` subcommand the form stands for, or its errors by block id."""
        outcome = deps.room.meeting_forms.read(
            channel=channel_of(view), user=_user(body), fields=submitted(view=view)
        )
        if isinstance(outcome, dict):
            return {FIELD_BLOCKS[field]: text for field, text in outcome.items()}
        return outcome

    def check(ack: Ack, body: dict[str, Any], view: dict[str, Any]) -> None:
        """Close the form when it is valid; else keep it open with the errors beside the
        fields (the archive unavailable: "not saved" beside the first; submitting retries)."""
        try:
            outcome = read(body, view)
        except ArchiveUnavailable:
            outcome = {ids.MEETING_DAY: as_plain(message=replies.NOT_SAVED)}
        if isinstance(outcome, dict):
            ack(response_action="errors", errors=outcome)
        else:
            ack()

    def save(body: dict[str, Any], view: dict[str, Any], client: WebClient) -> None:
        """Run a valid form as `/paperclub meeting set` and show the answer on the Home."""
        user = _user(body)
        try:
            outcome = read(body, view)
        except ArchiveUnavailable:
            return  # the form stayed open with "not saved"; nothing changed
        if isinstance(outcome, dict):
            return  # the form stayed open with its errors; nothing changed
        forms = deps.room.meeting_forms
        reply = forms.save(channel=channel_of(view), user=user, command=outcome)
        try:
            slack_home.publish(client=client, deps=deps, user=user, notice=reply.message)
        except ArchiveUnavailable:
            slack_home.unavailable(client=client, deps=deps, user=user)

    app.view(ids.MEETING_VIEW)(ack=check, lazy=[save])
