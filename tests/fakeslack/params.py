"""Reading Web API arguments the way Slack does, whether they came as form fields or JSON."""

from __future__ import annotations

import base64
import copy
import json
from typing import Any

from .model import ApiError, JsonDict
from .state import Workspace

# Keys the fake keeps on stored messages for itself; never shown through the API.
_INTERNAL_KEYS = ("channel",)


def text_arg(params: JsonDict, name: str) -> str:
    """A string argument; missing or null reads as ''."""
    value = params.get(name)
    return "" if value is None else str(value)


def bool_arg(params: JsonDict, name: str) -> bool:
    """A boolean argument: slack_sdk turns True into "1" in form bodies; JSON keeps true."""
    value = params.get(name)
    if isinstance(value, str):
        return value.strip().lower() in ("1", "true", "yes")
    return bool(value)


def int_arg(params: JsonDict, name: str, default: int) -> int:
    """An integer argument; Slack treats 0, junk and absence as the default."""
    try:
        value = int(params.get(name) or default)
    except (TypeError, ValueError):
        return default
    return value if value > 0 else default


def json_arg(params: JsonDict, name: str, error: str) -> Any:
    """An object argument that form bodies carry as a JSON string."""
    value = params.get(name)
    if isinstance(value, str) and value:
        try:
            return json.loads(value)
        except ValueError:
            raise ApiError(error) from None
    return value


def message_view(message: JsonDict, *, include_metadata: bool) -> JsonDict:
    """A stored message as the API shows it: internal keys dropped, metadata only if asked."""
    view = {k: copy.deepcopy(v) for k, v in message.items() if k not in _INTERNAL_KEYS}
    if not include_metadata:
        view.pop("metadata", None)
    return view


def encode_cursor(ts: str) -> str:
    """Slack's cursors are base64 of 'next_ts:<ts>'; the fake mimics the format."""
    return base64.b64encode(f"next_ts:{ts}".encode()).decode()


def decode_cursor(cursor: str) -> str:
    """The ts a cursor points at; invalid_cursor when it is not one we made."""
    try:
        text = base64.b64decode(cursor.encode(), validate=True).decode()
    except ValueError:
        raise ApiError("invalid_cursor") from None
    prefix, _, ts = text.partition(":")
    if prefix != "next_ts" or not ts:
        raise ApiError("invalid_cursor")
    return ts


def window(
    messages: list[JsonDict], params: JsonDict, *, newest_first: bool, default_limit: int
) -> tuple[list[JsonDict], str]:
    """Apply oldest/latest/inclusive, cursor and limit; return (page, next_cursor or '')."""
    inclusive = bool_arg(params, "inclusive")
    oldest = float(text_arg(params, "oldest") or 0)
    latest_raw = text_arg(params, "latest")
    latest = float(latest_raw) if latest_raw else float("inf")

    def inside(ts: float) -> bool:
        if inclusive:
            return oldest <= ts <= latest
        # Slack's oldest/latest bounds are exclusive unless inclusive=true.
        return oldest < ts < latest

    selected = [m for m in messages if inside(float(m["ts"]))]
    selected.sort(key=lambda m: float(m["ts"]), reverse=newest_first)
    cursor = text_arg(params, "cursor")
    if cursor:
        start_ts = float(decode_cursor(cursor))
        if newest_first:
            selected = [m for m in selected if float(m["ts"]) <= start_ts]
        else:
            selected = [m for m in selected if float(m["ts"]) >= start_ts]
    limit = min(int_arg(params, "limit", default_limit), 999 if newest_first else 1000)
    page, rest = selected[:limit], selected[limit:]
    return page, (encode_cursor(rest[0]["ts"]) if rest else "")


def member_channel(ws: Workspace, params: JsonDict, name: str = "channel") -> str:
    """Resolve a channel the bot must be in (posting, reading history)."""
    ref = text_arg(params, name)
    if not ref:
        raise ApiError("channel_not_found")
    channel = ws.find_channel(ref)
    if channel.is_private and not channel.is_member:
        # A private channel the bot is not in does not exist, as far as the bot can tell.
        raise ApiError("channel_not_found")
    if not channel.is_member:
        raise ApiError("not_in_channel")
    return channel.id
