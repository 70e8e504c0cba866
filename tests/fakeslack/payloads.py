"""Builders for what Slack sends an app, shaped like real deliveries (IDs are defaults)."""

from __future__ import annotations

import time
import uuid
from typing import Any

from .model import JsonDict

TEAM_ID = "T0001"
TEAM_DOMAIN = "paperclub-test"
APP_ID = "A0APP"
BOT_USER_ID = "U0BOT"
VERIFICATION_TOKEN = "fake-verification-token"  # deprecated by Slack, still in every payload


def _now_ts() -> str:
    return f"{time.time():.6f}"


def new_event_id() -> str:
    """An event id like Slack's ("Ev" + 9 or more upper-case alphanumerics)."""
    return "Ev" + uuid.uuid4().hex[:10].upper()


def event_envelope_payload(
    event: JsonDict,
    *,
    event_id: str | None = None,
    team_id: str = TEAM_ID,
    api_app_id: str = APP_ID,
    event_time: int | None = None,
    bot_user_id: str = BOT_USER_ID,
) -> JsonDict:
    """The Events API callback (Socket Mode payload, or the HTTP body) wrapping one event."""
    return {
        "token": VERIFICATION_TOKEN,
        "team_id": team_id,
        "context_team_id": team_id,
        "context_enterprise_id": None,
        "api_app_id": api_app_id,
        "event": event,
        "type": "event_callback",
        "event_id": event_id or new_event_id(),
        "event_time": event_time if event_time is not None else int(time.time()),
        "authorizations": [
            {
                "enterprise_id": None,
                "team_id": team_id,
                "user_id": bot_user_id,
                "is_bot": True,
                "is_enterprise_install": False,
            }
        ],
        "is_ext_shared_channel": False,
        "event_context": "4-" + uuid.uuid4().hex,
    }


def message_event(
    *,
    channel: str,
    user: str,
    text: str,
    ts: str | None = None,
    thread_ts: str | None = None,
    parent_user_id: str | None = None,
    team: str = TEAM_ID,
) -> JsonDict:
    """A plain user message (message.channels); a thread reply when thread_ts is given."""
    ts = ts or _now_ts()
    event: JsonDict = {
        "client_msg_id": str(uuid.uuid4()),
        "type": "message",
        "text": text,
        "user": user,
        "ts": ts,
        "blocks": [
            {
                "type": "rich_text",
                "block_id": uuid.uuid4().hex[:5],
                "elements": [
                    {"type": "rich_text_section", "elements": [{"type": "text", "text": text}]}
                ],
            }
        ],
        "team": team,
        "channel": channel,
        "event_ts": ts,
        "channel_type": "channel",
    }
    if thread_ts:
        event["thread_ts"] = thread_ts
        event["parent_user_id"] = parent_user_id or BOT_USER_ID
    return event


def message_changed_event(
    *, channel: str, previous: JsonDict, new_text: str, editor: str | None = None
) -> JsonDict:
    """subtype message_changed: `previous` is the old message (ts, user, text, ...)."""
    now = _now_ts()
    message = dict(previous, text=new_text, edited={"user": editor or previous["user"], "ts": now})
    message.pop("channel", None)
    return {
        "type": "message",
        "subtype": "message_changed",
        "message": message,
        "previous_message": {k: v for k, v in previous.items() if k != "channel"},
        "channel": channel,
        "hidden": True,
        "ts": now,
        "event_ts": now,
        "channel_type": "channel",
    }


def message_deleted_event(*, channel: str, previous: JsonDict) -> JsonDict:
    """subtype message_deleted for the message `previous`."""
    now = _now_ts()
    return {
        "type": "message",
        "subtype": "message_deleted",
        "previous_message": {k: v for k, v in previous.items() if k != "channel"},
        "channel": channel,
        "hidden": True,
        "deleted_ts": previous["ts"],
        "event_ts": now,
        "ts": now,
        "channel_type": "channel",
    }


def reaction_event(
    *,
    user: str,
    reaction: str,
    channel: str,
    item_ts: str,
    item_user: str = BOT_USER_ID,
    removed: bool = False,
) -> JsonDict:
    """reaction_added / reaction_removed; 👍 arrives as "+1", skin tones as "+1::skin-tone-3"."""
    return {
        "type": "reaction_removed" if removed else "reaction_added",
        "user": user,
        "reaction": reaction,
        "item": {"type": "message", "channel": channel, "ts": item_ts},
        "item_user": item_user,
        "event_ts": _now_ts(),
    }


def slash_command_payload(
    *,
    command: str = "/paperclub",
    text: str = "",
    user_id: str = "U0001",
    user_name: str = "alice",
    channel_id: str = "C0001",
    channel_name: str = "general",
    response_url: str = "https://hooks.slack.com/commands/T0001/1/fake",
    team_id: str = TEAM_ID,
    api_app_id: str = APP_ID,
    trigger_id: str | None = None,
) -> dict[str, str]:
    """A slash command: every value a string, as in the form body Slack posts."""
    return {
        "token": VERIFICATION_TOKEN,
        "team_id": team_id,
        "team_domain": TEAM_DOMAIN,
        "channel_id": channel_id,
        "channel_name": channel_name,
        "user_id": user_id,
        "user_name": user_name,
        "command": command,
        "text": text,
        "api_app_id": api_app_id,
        "is_enterprise_install": "false",
        "response_url": response_url,
        "trigger_id": trigger_id or f"{int(time.time())}.1.{uuid.uuid4().hex[:12]}",
    }


def block_actions_payload(
    action_id: str,
    value: str,
    *,
    user_id: str = "U0001",
    user_name: str = "alice",
    channel_id: str = "C0001",
    channel_name: str = "general",
    message_ts: str,
    block_id: str = "actions",
    button_text: str = "Button",
    message: JsonDict | None = None,
    response_url: str = "https://hooks.slack.com/actions/T0001/1/fake",
    team_id: str = TEAM_ID,
    api_app_id: str = APP_ID,
) -> JsonDict:
    """A button click (type block_actions) on a message in a channel."""
    msg: dict[str, Any] = (
        {k: v for k, v in message.items() if k != "channel"}
        if message is not None
        else {"type": "message", "user": BOT_USER_ID, "ts": message_ts, "text": ""}
    )
    return {
        "type": "block_actions",
        "user": {"id": user_id, "username": user_name, "name": user_name, "team_id": team_id},
        "api_app_id": api_app_id,
        "token": VERIFICATION_TOKEN,
        "container": {
            "type": "message",
            "message_ts": message_ts,
            "channel_id": channel_id,
            "is_ephemeral": False,
        },
        "trigger_id": f"{int(time.time())}.1.{uuid.uuid4().hex[:12]}",
        "team": {"id": team_id, "domain": TEAM_DOMAIN},
        "enterprise": None,
        "is_enterprise_install": False,
        "channel": {"id": channel_id, "name": channel_name},
        "message": msg,
        "state": {"values": {}},
        "response_url": response_url,
        "actions": [
            {
                "action_id": action_id,
                "block_id": block_id,
                "text": {"type": "plain_text", "text": button_text, "emoji": True},
                "value": value,
                "type": "button",
                "action_ts": _now_ts(),
            }
        ],
    }


def url_verification_payload(challenge: str = "fake-challenge") -> JsonDict:
    """What Slack posts once when an HTTP events URL is configured."""
    return {"token": VERIFICATION_TOKEN, "challenge": challenge, "type": "url_verification"}


def app_home_opened_event(
    *, user: str, tab: str = "home", view: JsonDict | None = None
) -> JsonDict:
    """app_home_opened: the person opened the app's Home (or Messages) tab; `view` is the Home
    published to them before, if any."""
    event: JsonDict = {
        "type": "app_home_opened",
        "user": user,
        "channel": "D0" + user.removeprefix("U")[:9],
        "tab": tab,
        "event_ts": _now_ts(),
    }
    if view is not None:
        event["view"] = view
    return event


def home_block_actions_payload(
    action_id: str,
    value: str,
    *,
    user_id: str,
    trigger_id: str,
    view: JsonDict | None = None,
    block_id: str = "home",
    button_text: str = "Button",
    user_name: str = "alice",
    team_id: str = TEAM_ID,
    api_app_id: str = APP_ID,
) -> JsonDict:
    """A button click on the App Home (container type view; no channel, no response_url);
    `trigger_id` comes from the fake (Workspace.views.issue_trigger), good for one views.open."""
    shown: JsonDict = view if view is not None else {"id": "V0000000000", "type": "home"}
    return {
        "type": "block_actions",
        "user": {"id": user_id, "username": user_name, "name": user_name, "team_id": team_id},
        "api_app_id": api_app_id,
        "token": VERIFICATION_TOKEN,
        "container": {"type": "view", "view_id": shown.get("id", "V0000000000")},
        "trigger_id": trigger_id,
        "team": {"id": team_id, "domain": TEAM_DOMAIN},
        "enterprise": None,
        "is_enterprise_install": False,
        "view": shown,
        "actions": [
            {
                "action_id": action_id,
                "block_id": block_id,
                "text": {"type": "plain_text", "text": button_text, "emoji": True},
                "value": value,
                "type": "button",
                "action_ts": _now_ts(),
            }
        ],
    }


def view_submission_payload(
    *,
    view: JsonDict,
    values: JsonDict,
    user_id: str,
    trigger_id: str = "",
    user_name: str = "alice",
    team_id: str = TEAM_ID,
    api_app_id: str = APP_ID,
) -> JsonDict:
    """A submitted modal: the opened `view` with the inputs' state `values`
    ({block_id: {action_id: {"type": ..., "selected_...": ...}}})."""
    submitted = dict(view, state={"values": values})
    return {
        "type": "view_submission",
        "team": {"id": team_id, "domain": TEAM_DOMAIN},
        "user": {"id": user_id, "username": user_name, "name": user_name, "team_id": team_id},
        "api_app_id": api_app_id,
        "token": VERIFICATION_TOKEN,
        "trigger_id": trigger_id or f"{int(time.time())}.1.{uuid.uuid4().hex[:12]}",
        "view": submitted,
        "response_urls": [],
        "is_enterprise_install": False,
        "enterprise": None,
    }
