"""Web API methods that write: chat.* and reactions.*."""

from __future__ import annotations

from typing import Any

from .blocks import parse_blocks, validate_blocks
from .model import ApiError, JsonDict
from .params import json_arg, member_channel, message_view, text_arg
from .state import Workspace

MAX_TEXT = 40_000
PERMALINK_HOST = "https://fake.slack.test"


def _content(params: JsonDict, *, required: bool) -> tuple[str, list[Any] | None]:
    """text and blocks, validated: Slack checks limits before it stores anything."""
    text = text_arg(params, "text")
    blocks = parse_blocks(params.get("blocks"))
    has_other = bool(params.get("attachments")) or bool(text_arg(params, "markdown_text").strip())
    if required and not text.strip() and not blocks and not has_other:
        raise ApiError("no_text")
    if len(text) > MAX_TEXT:
        raise ApiError("msg_too_long")
    if blocks is not None:
        validate_blocks(blocks)
    return text, blocks


def _metadata(params: JsonDict) -> JsonDict | None:
    metadata = json_arg(params, "metadata", "invalid_metadata_format")
    if metadata is None or metadata == "":
        return None
    if (
        not isinstance(metadata, dict)
        or not isinstance(metadata.get("event_type"), str)
        or not metadata["event_type"]
        or not isinstance(metadata.get("event_payload", {}), dict)
    ):
        raise ApiError("invalid_metadata_format")
    return {
        "event_type": metadata["event_type"],
        "event_payload": metadata.get("event_payload", {}),
    }


def _bot_message(ws: Workspace, ts: str, text: str) -> JsonDict:
    return {
        "user": ws.bot_user_id,
        "type": "message",
        "ts": ts,
        "bot_id": ws.bot_id,
        "app_id": ws.app_id,
        "text": text,
        "team": ws.team_id,
        "bot_profile": {
            "id": ws.bot_id,
            "app_id": ws.app_id,
            "name": ws.bot_name,
            "deleted": False,
            "team_id": ws.team_id,
        },
    }


def chat_post_message(ws: Workspace, params: JsonDict) -> JsonDict:
    """chat.postMessage: validate everything first, then store with a fresh ts."""
    channel = member_channel(ws, params)
    text, blocks = _content(params, required=True)
    metadata = _metadata(params)
    message = _bot_message(ws, ws.next_ts(), text)
    if blocks is not None:
        message["blocks"] = blocks
    thread_ts = text_arg(params, "thread_ts")
    if thread_ts:
        message["thread_ts"] = thread_ts
        if params.get("reply_broadcast") in (True, "1", "true"):
            message["subtype"] = "thread_broadcast"
    if metadata is not None:
        message["metadata"] = metadata
    stored = ws.store_message(channel, message)
    # The answer's message never carries metadata: only history with include_all_metadata does.
    return {
        "channel": channel,
        "ts": stored["ts"],
        "message": message_view(stored, include_metadata=False),
    }


def chat_update(ws: Workspace, params: JsonDict) -> JsonDict:
    """chat.update: only the bot's own messages; keeps blocks/metadata not re-sent."""
    channel = member_channel(ws, params)
    ts = text_arg(params, "ts")
    if not ts:
        raise ApiError("message_not_found")
    message = ws.get_message(channel, ts)
    if message.get("user") != ws.bot_user_id:
        raise ApiError("cant_update_message")
    text, blocks = _content(params, required=True)
    metadata = _metadata(params)
    if "text" in params:
        message["text"] = text
    if blocks is not None:
        message["blocks"] = blocks
    if metadata is not None:
        message["metadata"] = metadata
    message["edited"] = {"user": ws.bot_user_id, "ts": ws.next_ts()}
    view = message_view(message, include_metadata=False)
    return {"channel": channel, "ts": ts, "text": message["text"], "message": view}


def chat_post_ephemeral(ws: Workspace, params: JsonDict) -> JsonDict:
    """chat.postEphemeral: kept apart from history, as Slack never stores them."""
    channel = member_channel(ws, params)
    user = text_arg(params, "user")
    if user not in ws.users:
        raise ApiError("user_not_found")
    text, blocks = _content(params, required=True)
    ts = ws.next_ts()
    message: JsonDict = {"type": "message", "user": user, "text": text, "ts": ts}
    if blocks is not None:
        message["blocks"] = blocks
    if text_arg(params, "thread_ts"):
        message["thread_ts"] = text_arg(params, "thread_ts")
    ws.store_ephemeral(channel, message)
    return {"message_ts": ts}


def chat_get_permalink(ws: Workspace, params: JsonDict) -> JsonDict:
    """chat.getPermalink: p + ts without the dot, plus thread_ts/cid for replies."""
    channel = ws.find_channel(text_arg(params, "channel")).id
    ts = text_arg(params, "message_ts")
    message = ws.get_message(channel, ts)
    link = f"{PERMALINK_HOST}/archives/{channel}/p{ts.replace('.', '')}"
    thread_ts = message.get("thread_ts")
    if thread_ts and thread_ts != ts:
        link += f"?thread_ts={thread_ts}&cid={channel}"
    return {"channel": channel, "permalink": link}


def _reaction_target(ws: Workspace, params: JsonDict) -> tuple[JsonDict, str]:
    channel = ws.find_channel(text_arg(params, "channel")).id
    message = ws.get_message(channel, text_arg(params, "timestamp"))
    name = text_arg(params, "name").strip(":")
    if not name:
        raise ApiError("invalid_name")
    return message, name


def reactions_add(ws: Workspace, params: JsonDict) -> JsonDict:
    """reactions.add as the bot user."""
    message, name = _reaction_target(ws, params)
    reactions: list[JsonDict] = message.setdefault("reactions", [])
    entry = next((r for r in reactions if r["name"] == name), None)
    if entry is None:
        entry = {"name": name, "users": [], "count": 0}
        reactions.append(entry)
    if ws.bot_user_id in entry["users"]:
        raise ApiError("already_reacted")
    entry["users"].append(ws.bot_user_id)
    entry["count"] = len(entry["users"])
    return {}


def reactions_remove(ws: Workspace, params: JsonDict) -> JsonDict:
    """reactions.remove as the bot user."""
    message, name = _reaction_target(ws, params)
    reactions: list[JsonDict] = message.get("reactions", [])
    entry = next((r for r in reactions if r["name"] == name), None)
    if entry is None or ws.bot_user_id not in entry["users"]:
        raise ApiError("no_reaction")
    entry["users"].remove(ws.bot_user_id)
    entry["count"] = len(entry["users"])
    if not entry["users"]:
        reactions.remove(entry)
    return {}
