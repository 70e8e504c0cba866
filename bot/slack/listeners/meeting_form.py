"""The App Home's meeting form: the "Meeting…" button opens it for an admin (anyone else reads
why not on their Home), and a submitted one is either kept open with its errors beside the
fields (response_action "errors", in the ack) or saved as `/paperclub meeting set`, the answer
then shown on the Home, as the schedule form's (bot/slack/listeners/home_forms.py)."""

from __future__ import annotations

import logging
from typing import Any
from urllib.error import URLError

from slack_bolt import Ack, App
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from bot.domain import ChannelKey
from bot.ports import ArchiveUnavailable
from bot.services.home import MEETING_ACTION
from bot.services.meeting_form import MeetingForm
from bot.services.reply import Reply
from bot.slack import home as slack_home
from bot.slack import ids
from bot.slack.deps import SlackDeps
from bot.slack.listeners.home_forms import register_form, user_of
from bot.slack.meeting_modal import FIELD_BLOCKS, meeting_modal, submitted

log = logging.getLogger(__name__)


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
        user = user_of(body)
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

    def read(channel: ChannelKey, user: str, view: dict[str, Any]) -> str | dict[str, str]:
        """The `meeting set` subcommand the form stands for, or its errors by block id."""
        outcome = deps.room.meeting_forms.read(
            channel=channel, user=user, fields=submitted(view=view)
        )
        if isinstance(outcome, dict):
            return {FIELD_BLOCKS[field]: text for field, text in outcome.items()}
        return outcome

    def save(channel: ChannelKey, user: str, command: str) -> Reply:
        """Run a valid form as `/paperclub meeting set`."""
        return deps.room.meeting_forms.save(channel=channel, user=user, command=command)

    register_form(
        app=app,
        deps=deps,
        callback_id=ids.MEETING_VIEW,
        first_block=ids.MEETING_DAY,
        read=read,
        save=save,
    )
