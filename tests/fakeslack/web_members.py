"""users.conversations: the conversations a person is in, as a bot token may see them."""

from __future__ import annotations

from .model import ApiError, Channel, JsonDict
from .params import bool_arg, decode_cursor, encode_cursor, int_arg, text_arg
from .state import Workspace

_TYPES = {"public_channel", "private_channel", "mpim", "im"}


def _kind(channel: Channel) -> str:
    """The `types` value a conversation answers to."""
    if channel.is_im:
        return "im"
    return "private_channel" if channel.is_private else "public_channel"


def add_member(ws: Workspace, channel: str, user: str) -> None:
    """Put a person in a channel (tests' setup)."""
    with ws.lock:
        ws.find_channel(channel).members.add(user)


def users_conversations(ws: Workspace, params: JsonDict) -> JsonDict:
    """users.conversations: `user`'s channels (the bot's own without one), by id, paged;
    a private channel only when the bot is in it too (else the token cannot see it)."""
    user = text_arg(params, "user") or ws.bot_user_id
    if user not in ws.users:
        raise ApiError("user_not_found")
    types = {t.strip() for t in (text_arg(params, "types") or "public_channel").split(",")}
    if not types <= _TYPES:
        raise ApiError("invalid_types")
    channels = sorted(
        (
            c
            for c in ws.channels.values()
            if (c.is_member if user == ws.bot_user_id else user in c.members)
            and _kind(c) in types
            and (c.is_member or not c.is_private)
        ),
        key=lambda c: c.id,
    )
    cursor = text_arg(params, "cursor")
    if cursor:
        start = decode_cursor(cursor)
        channels = [c for c in channels if c.id >= start]
    limit = min(int_arg(params, "limit", 100), 1000)
    page, rest = channels[:limit], channels[limit:]
    _ = bool_arg(params, "exclude_archived")  # the fake archives nothing
    listed: list[JsonDict] = [
        {
            "id": c.id,
            "name": c.name,
            "is_channel": not c.is_private,
            "is_group": False,
            "is_im": c.is_im,
            "is_mpim": False,
            "is_private": c.is_private,
            "is_archived": False,
            "is_general": c.name == "general",
            "created": c.created,
            "context_team_id": ws.team_id,
        }
        for c in page
    ]
    return {
        "channels": listed,
        "response_metadata": {"next_cursor": encode_cursor(rest[0].id) if rest else ""},
    }
