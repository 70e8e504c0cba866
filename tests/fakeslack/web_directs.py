"""conversations.open: the bot's direct message with one person (Slack calls it an im).

Slack answers {"ok": true, "channel": {"id": "D…"}}, with "no_op" and "already_open" when the
im was open already, and the whole conversation with return_im=true. The fake opens one im per
person, always the same id; a group DM (several users) is not played.
"""

from __future__ import annotations

from .model import ApiError, Channel, JsonDict
from .params import bool_arg, text_arg
from .state import Workspace


def im_id(user: str) -> str:
    """The id of the bot's im with a person: "D" and the person's id without its letter."""
    return f"D{user[1:]}"


def _im_view(ws: Workspace, channel: Channel) -> JsonDict:
    """An im as conversations.info and return_im show it: no name, the other person's id."""
    other = next((u for u in sorted(channel.members) if u != ws.bot_user_id), "")
    return {
        "id": channel.id,
        "created": channel.created,
        "is_im": True,
        "is_org_shared": False,
        "context_team_id": ws.team_id,
        "user": other,
        "last_read": "0000000000.000000",
        "latest": None,
        "unread_count": 0,
        "unread_count_display": 0,
        "is_open": True,
        "priority": 0,
    }


def conversations_open(ws: Workspace, params: JsonDict) -> JsonDict:
    """conversations.open with `users` (one person) or `channel` (an im to resume)."""
    users = [u.strip() for u in text_arg(params, "users").split(",") if u.strip()]
    resumed = text_arg(params, "channel")
    if resumed:
        channel = ws.find_channel(resumed)
        if not channel.is_im:
            raise ApiError("method_not_supported_for_channel_type")
        return {"no_op": True, "already_open": True, "channel": _answer(ws, channel, params)}
    if not users:
        raise ApiError("users_list_not_supplied")
    if len(users) > 1:
        raise ApiError("not_supported_by_the_fake")  # a group DM (mpim)
    user = ws.users.get(users[0])
    if user is None:
        raise ApiError("user_not_found")
    if user.deleted:
        raise ApiError("user_disabled")
    if user.is_bot:
        raise ApiError("cannot_dm_bot")
    known = ws.channels.get(im_id(user.id))
    if known is not None:
        return {"no_op": True, "already_open": True, "channel": _answer(ws, known, params)}
    channel = Channel(
        id=im_id(user.id),
        name="",
        is_member=True,
        is_private=True,
        is_im=True,
        members={user.id, ws.bot_user_id},
    )
    ws.add_channel(channel)
    return {"channel": _answer(ws, channel, params)}


def _answer(ws: Workspace, channel: Channel, params: JsonDict) -> JsonDict:
    """The channel as the answer carries it: its id, or all of it with return_im."""
    return _im_view(ws, channel) if bool_arg(params, "return_im") else {"id": channel.id}


def im_info(ws: Workspace, channel: Channel) -> JsonDict:
    """conversations.info of an im."""
    return _im_view(ws, channel)
