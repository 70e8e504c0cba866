"""A poll's "Nominate a paper" button: it opens a form with one field, and a submitted form runs
`/paperclub nominate <paper>` in the poll's channel, as the person who submitted it. A paper
that names nothing, or is too long, is told beside the field (response_action "errors", in the
ack); the rest (a lookup may take seconds) runs after the ack, and its answer reaches the person
alone, in the channel (chat.postEphemeral).

The channel is the one Slack named for the click, kept in the view's private_metadata, which
Slack hands back as the app wrote it: a submission is as trustworthy as its signature, as a
slash command's channel is."""

from __future__ import annotations

import logging
from typing import Any
from urllib.error import URLError

from slack_bolt import Ack, App
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from bot.messages import as_plain
from bot.services.poll_commands import nomination_problem
from bot.slack import home as slack_home
from bot.slack import ids
from bot.slack.deps import SlackDeps
from bot.slack.listeners.votes import clicked_in
from bot.slack.nominate_modal import nominate_modal, submitted
from bot.wording.polls import NOMINATE, STALE

log = logging.getLogger(__name__)


def _user(body: dict[str, Any]) -> str:
    """Who clicked or submitted."""
    return str((body.get("user") or {}).get("id") or "")


def register(*, app: App, deps: SlackDeps) -> None:
    """Listen for the poll's nominate button and the form it opens."""

    def acknowledge(ack: Ack) -> None:
        """Ack at once; the form opens after."""
        ack()

    def pressed(body: dict[str, Any], client: WebClient) -> None:
        """Open the form for the channel Slack says the click was in (never the value's)."""
        channel = slack_home.channel_id(value=clicked_in(body=body))
        user = _user(body)
        if channel is None or not user:
            return
        trigger = str(body.get("trigger_id") or "")
        try:
            client.views_open(trigger_id=trigger, view=nominate_modal(channel=channel))
        except (SlackApiError, URLError, OSError) as exc:
            log.warning("views.open failed for %s: %s", user, exc)

    app.action(ids.action_id(action=NOMINATE))(ack=acknowledge, lazy=[pressed])

    def check(ack: Ack, view: dict[str, Any]) -> None:
        """Close the form when it names a paper; else keep it open and say why."""
        channel = slack_home.channel_id(value=view.get("private_metadata"))
        problem = nomination_problem(text=submitted(view=view))
        if problem is None and channel is None:  # not a form this app opened
            problem = as_plain(message=STALE)
        if problem is not None:
            ack(response_action="errors", errors={ids.NOMINATE_PAPER: problem})
        else:
            ack()

    def nominate(body: dict[str, Any], view: dict[str, Any], client: WebClient) -> None:
        """Run `/paperclub nominate` as typed; tell the person what it did."""
        channel = slack_home.channel_id(value=view.get("private_metadata"))
        paper, user = submitted(view=view), _user(body)
        if channel is None or not user or nomination_problem(text=paper) is not None:
            return  # the form stayed open with its error
        key = deps.channel(channel_id=channel)
        reply = deps.room.command(channel=key, user=user, text=f"nominate {paper}")
        text, blocks = deps.chat.answer(reply=reply)
        try:
            client.chat_postEphemeral(channel=channel, user=user, text=text, blocks=blocks)
        except (SlackApiError, URLError, OSError) as exc:
            log.warning("chat.postEphemeral failed for %s: %s", user, exc)

    app.view(ids.NOMINATE_VIEW)(ack=check, lazy=[nominate])
