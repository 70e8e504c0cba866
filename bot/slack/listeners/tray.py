"""Buttons on messages the bot keeps up to date: the suggestions tray's (Add to queue, Not for us),
in a channel and on the App Home, a session reminder's RSVPs (Going, Maybe, Not going), a
poll's (a paper's number, Clear my vote, See the votes) and the rating after a session. Acked
at once, then decided through Room.clicks as the channel Slack names (never one the button's
value could name); the message is redrawn in place for everyone and the clicker alone reads the
answer."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Protocol

from slack_bolt import Ack, App, Respond
from slack_sdk import WebClient

from bot.domain import ChannelKey
from bot.messages import Message
from bot.ports import ArchiveUnavailable
from bot.services import home_trays
from bot.services.home import Viewer
from bot.services.reply import ClickAnswer
from bot.slack import home as slack_home
from bot.slack import ids
from bot.slack.deps import SlackDeps
from bot.slack.listeners.votes import clicked_in
from bot.slack.redraw import redraw
from bot.wording import home as home_words
from bot.wording.meetings import RSVP_ACTIONS
from bot.wording.polls import CLEAR, RESULTS, VOTE
from bot.wording.presenters import ACCEPT, DECLINE
from bot.wording.ratings import RATE_ACTIONS
from bot.wording.suggestions import ADD, HIDE

log = logging.getLogger(__name__)


class Click(Protocol):
    """What a click decides (Room.clicks' tray and rsvp)."""

    def __call__(self, *, channel: ChannelKey, user: str, action: str, value: str) -> ClickAnswer:
        """The answer and the redrawn message."""
        ...


def _clicked_message(*, body: dict[str, Any]) -> tuple[str | None, bool]:
    """The ts of the message the button was on, and whether only the clicker sees it (the
    tray /paperclub suggestions showed)."""
    container = body.get("container")
    if not isinstance(container, dict) or container.get("type") != "message":
        return None, False
    ts = container.get("message_ts")
    return (str(ts) if ts else None), bool(container.get("is_ephemeral"))


def _redraw_posted(
    *, deps: SlackDeps, channel: ChannelKey, ts: str | None, answer: ClickAnswer
) -> None:
    """Redraw the channel's tray message: the one clicked, else the one the archive noted."""
    where = ts or answer.posted
    if where and answer.redrawn is not None:
        redraw(chat=deps.chat, channel=channel, ts=where, message=answer.redrawn)


def _tell(*, deps: SlackDeps, respond: Respond, message: Message, replace: bool) -> None:
    """Through the click's response_url, ephemeral: only the clicker sees it."""
    text, shown = deps.chat.render(message=message)
    try:
        respond(text=text, blocks=shown, response_type="ephemeral", replace_original=replace)
    except Exception as error:  # the decision stands; the log says why
        # The type only: an error may quote the response_url (a credential).
        log.warning("could not answer a tray click: %s", type(error).__name__)


def register(*, app: App, deps: SlackDeps) -> None:
    """Listen for the tray's two buttons, in channels and on the Home."""

    def acknowledge(ack: Ack) -> None:
        """Ack at once; the decision and the redraw follow."""
        ack()

    def in_channel_of(click: Click) -> Callable[..., None]:
        """The lazy listener of a button in a channel, deciding with `click`."""

        def in_channel(body: dict[str, Any], action: dict[str, Any], respond: Respond) -> None:
            """Decide as the channel of the click, redraw the message, answer."""
            user = str((body.get("user") or {}).get("id") or "")
            if not user:
                return
            channel = deps.channel(channel_id=clicked_in(body=body))
            value = str(action.get("value") or "")
            name = ids.action_of(action_id_seen=str(action.get("action_id", "")))
            answer = click(channel=channel, user=user, action=name, value=value)
            ts, ephemeral = _clicked_message(body=body)
            if answer.redrawn is not None:
                if ephemeral:  # the clicker's own copy, then the channel's
                    _tell(deps=deps, respond=respond, message=answer.redrawn, replace=True)
                where = None if ephemeral else ts
                _redraw_posted(deps=deps, channel=channel, ts=where, answer=answer)
            _tell(deps=deps, respond=respond, message=answer.reply.message, replace=False)

        return in_channel

    clicks = deps.room.clicks
    for action in (ADD, HIDE):
        app.action(ids.action_pattern(action=action))(
            ack=acknowledge, lazy=[in_channel_of(clicks.tray)]
        )
    for action in RSVP_ACTIONS:
        app.action(ids.action_pattern(action=action))(
            ack=acknowledge, lazy=[in_channel_of(clicks.rsvp)]
        )
    for action in (VOTE, CLEAR, RESULTS):
        app.action(ids.action_pattern(action=action))(
            ack=acknowledge, lazy=[in_channel_of(clicks.vote)]
        )
    for action in (ACCEPT, DECLINE):
        app.action(ids.action_pattern(action=action))(
            ack=acknowledge, lazy=[in_channel_of(clicks.swap)]
        )
    for action in RATE_ACTIONS:
        app.action(ids.action_pattern(action=action))(
            ack=acknowledge, lazy=[in_channel_of(clicks.rate)]
        )

    def on_home(body: dict[str, Any], action: dict[str, Any], client: WebClient) -> None:
        """Decide the suggestion in the channel the button names, if the person is in it;
        then publish their Home again, with the answer on top."""
        user = str((body.get("user") or {}).get("id") or "")
        if not user:
            return
        try:
            home_click(body=body, action=action, client=client, user=user)
        except ArchiveUnavailable:
            slack_home.unavailable(client=client, deps=deps, user=user)

    def home_click(
        *, body: dict[str, Any], action: dict[str, Any], client: WebClient, user: str
    ) -> None:
        """The Home tray button's decision, shown on the republished Home."""
        viewer = Viewer(
            user=user, channels=slack_home.member_of(client=client, deps=deps, user=user)
        )
        read = home_trays.read_value(value=action.get("value"))
        name = ids.action_of(action_id_seen=str(action.get("action_id", "")))
        channel_id = slack_home.channel_id(value=read[0]) if read else None
        channel = deps.channel(channel_id=channel_id) if channel_id else None
        if read is None or channel is None or channel not in (viewer.channels or ()):
            # Not one of our values, or a channel the person is not in: the Home as it is.
            slack_home.publish(client=client, deps=deps, user=user, viewer=viewer)
            return
        number = read[1]
        answer = deps.room.clicks.tray(
            channel=channel, user=user, action=home_trays.ACTIONS[name], value=number
        )
        _redraw_posted(deps=deps, channel=channel, ts=None, answer=answer)
        notice = home_words.notice(channel=channel, said=answer.reply.message)
        slack_home.publish(client=client, deps=deps, user=user, notice=notice, viewer=viewer)

    for action in home_trays.ACTIONS:
        app.action(ids.action_id(action=action))(ack=acknowledge, lazy=[on_home])
