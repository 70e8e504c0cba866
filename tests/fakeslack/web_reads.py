"""Read methods for a post's reactions and thread: reactions.get and conversations.replies,
shaped as Slack documents their answers."""

from __future__ import annotations

import copy

from .model import ApiError, JsonDict
from .params import (
    bool_arg,
    decode_cursor,
    encode_cursor,
    int_arg,
    member_channel,
    message_view,
    text_arg,
)
from .state import Workspace

# Without full=true Slack may shorten a reaction's `users` (its `count` stays whole).
PARTIAL_USERS = 50
PERMALINK_HOST = "https://fake.slack.test"


def reactions_get(ws: Workspace, params: JsonDict) -> JsonDict:
    """reactions.get for a message: {"type": "message", "channel", "message": {..., reactions,
    permalink}}; users cut to PARTIAL_USERS unless full."""
    if not text_arg(params, "channel") or not text_arg(params, "timestamp"):
        raise ApiError("no_item_specified")
    channel = member_channel(ws, params)
    stored = ws.get_message(channel, text_arg(params, "timestamp"))
    message = message_view(stored, include_metadata=False)
    full = bool_arg(params, "full")
    reactions = copy.deepcopy(message.get("reactions") or [])
    for reaction in reactions:
        if not full:
            reaction["users"] = reaction["users"][:PARTIAL_USERS]
    if reactions:
        message["reactions"] = reactions
    message["permalink"] = f"{PERMALINK_HOST}/archives/{channel}/p{message['ts'].replace('.', '')}"
    return {"type": "message", "channel": channel, "message": message}


def conversations_replies(ws: Workspace, params: JsonDict) -> JsonDict:
    """conversations.replies: the parent first on every page, then up to limit - 1 replies
    oldest first (a page never holds more than `limit`); has_more and next_cursor while
    replies remain."""
    channel = member_channel(ws, params)
    message = ws.find_message(channel, text_arg(params, "ts"))
    if message is None:
        raise ApiError("thread_not_found")
    root = message.get("thread_ts") or message["ts"]
    parent = ws.find_message(channel, root)
    replies = [
        m for m in ws.all_messages(channel) if m.get("thread_ts") == root and m["ts"] != root
    ]
    cursor = text_arg(params, "cursor")
    if cursor:
        start = float(decode_cursor(cursor))
        replies = [m for m in replies if float(m["ts"]) >= start]
    limit = min(int_arg(params, "limit", 1000), 1000)
    take = max(1, limit - 1) if parent is not None else limit
    page, rest = replies[:take], replies[take:]
    shown = ([parent] if parent is not None else []) + page
    answer: JsonDict = {
        "messages": [message_view(m, include_metadata=False) for m in shown],
        "has_more": bool(rest),
    }
    if rest:
        answer["response_metadata"] = {"next_cursor": encode_cursor(rest[0]["ts"])}
    return answer
