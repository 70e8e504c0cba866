"""REST routes for messages, history and reactions; each change is also dispatched."""

from __future__ import annotations

from collections.abc import Mapping

from aiohttp import web

from . import messages
from .model import ApiError, JsonDict
from .rest import (
    API_PREFIX,
    STATE,
    answer,
    body_of,
    dispatch,
    dispatch_message,
    files_of,
    no_content,
    path_ids,
)
from .validation import check_message, field_error


def _attachments(*, request: web.Request, body: JsonDict) -> list[JsonDict]:
    """Attachment objects for the uploaded files, named as the payload's attachments say."""
    state = request.app[STATE]
    declared = {str(a.get("id")): a for a in body.get("attachments") or []}
    made = []
    for index, upload in enumerate(files_of(request)):
        attachment_id = state.ids.next()
        meta = declared.get(str(index), {})
        filename = str(meta.get("filename") or upload["filename"])
        url = f"https://cdn.discordapp.com/attachments/{request.match_info['channel_id']}/{attachment_id}/{filename}"
        made.append(
            {
                "id": attachment_id,
                "filename": filename,
                "size": upload["size"],
                "url": url,
                "proxy_url": url.replace("cdn.discordapp.com", "media.discordapp.net"),
                "content_type": upload["content_type"],
                "height": None,
                "width": None,
                "description": meta.get("description"),
                "ephemeral": False,
            }
        )
    return made


async def create_message(request: web.Request) -> web.Response:
    """POST /channels/{id}/messages; a repeated enforced nonce answers the first message."""
    state = request.app[STATE]
    channel_id, _ = path_ids(request)
    state.directory.accessible(channel_id=channel_id)
    body = body_of(request)
    check_message(body=body, has_files=bool(files_of(request)))
    state.directs.check_sendable(channel_id=channel_id)
    stored, created = state.store.create(
        channel_id=channel_id,
        author=state.bot_user(),
        body=body,
        attachments=_attachments(request=request, body=body),
    )
    if created:
        await dispatch_message(request=request, event="MESSAGE_CREATE", stored=stored)
    return answer(stored)


async def get_message(request: web.Request) -> web.Response:
    """GET /channels/{id}/messages/{mid}."""
    state = request.app[STATE]
    channel_id, message_id = path_ids(request)
    state.directory.accessible(channel_id=channel_id)
    return answer(state.store.get(channel_id=channel_id, message_id=message_id))


async def edit_message(request: web.Request) -> web.Response:
    """PATCH /channels/{id}/messages/{mid}: only the bot's own messages."""
    state = request.app[STATE]
    channel_id, message_id = path_ids(request)
    state.directory.accessible(channel_id=channel_id)
    body = body_of(request)
    check_message(body=body, editing=True)
    edited = state.store.edit(
        channel_id=channel_id, message_id=message_id, body=body, editor_id=state.bot_id
    )
    await dispatch_message(request=request, event="MESSAGE_UPDATE", stored=edited)
    return answer(edited)


async def delete_message(request: web.Request) -> web.Response:
    """DELETE /channels/{id}/messages/{mid}."""
    state = request.app[STATE]
    channel_id, message_id = path_ids(request)
    guild_id = state.directory.guild_id_of(channel_id=channel_id)
    state.directory.accessible(channel_id=channel_id)
    state.store.delete(channel_id=channel_id, message_id=message_id)
    data = messages.delete_event(message_id=message_id, channel_id=channel_id, guild_id=guild_id)
    await dispatch(request=request, event="MESSAGE_DELETE", data=data)
    return no_content()


async def bulk_delete(request: web.Request) -> web.Response:
    """POST /channels/{id}/messages/bulk-delete: 2 to 100 ids."""
    state = request.app[STATE]
    channel_id, _ = path_ids(request)
    state.directory.accessible(channel_id=channel_id)
    ids = [str(i) for i in body_of(request).get("messages") or []]
    if not 2 <= len(ids) <= 100:
        message = "Must be between 2 and 100 in length."
        raise field_error(field="messages", code="BASE_TYPE_BAD_LENGTH", message=message)
    known = {m["id"] for m in state.store.all(channel_id=channel_id)}
    for message_id in ids:
        if message_id in known:
            state.store.delete(channel_id=channel_id, message_id=message_id)
    guild_id = state.directory.guild_id_of(channel_id=channel_id)
    data = messages.bulk_delete_event(ids=ids, channel_id=channel_id, guild_id=guild_id)
    await dispatch(request=request, event="MESSAGE_DELETE_BULK", data=data)
    return no_content()


async def history(request: web.Request) -> web.Response:
    """GET /channels/{id}/messages?limit&before&after&around (newest first)."""
    state = request.app[STATE]
    channel_id, _ = path_ids(request)
    state.directory.accessible(channel_id=channel_id)
    query = request.query
    return answer(
        state.store.history(
            channel_id=channel_id,
            limit=int(query.get("limit", 50)),
            before=query.get("before"),
            after=query.get("after"),
            around=query.get("around"),
        )
    )


async def _react(request: web.Request, *, add: bool, user_id: str) -> web.Response:
    """Add or remove one user's reaction; dispatch the event when something changed."""
    state = request.app[STATE]
    channel_id, message_id = path_ids(request)
    state.directory.accessible(channel_id=channel_id)
    emoji = messages.parse_emoji(text=request.match_info["emoji"])
    guild_id = state.directory.guild_id_of(channel_id=channel_id)
    with state.lock:
        stored = state.store.live(channel_id=channel_id, message_id=message_id)
        change = messages.add_reaction if add else messages.remove_reaction
        changed = change(stored=stored, emoji=emoji, user_id=user_id, me_id=state.bot_id)
        snapshot = messages.public(stored=stored)
    state.journal.notify()
    if changed:
        member = state.directory.member(guild_id=guild_id, user_id=user_id) if add else None
        data = messages.reaction_event(
            added=add,
            stored=snapshot,
            guild_id=guild_id,
            user_id=user_id,
            emoji=emoji,
            member=member,
        )
        event = "MESSAGE_REACTION_ADD" if add else "MESSAGE_REACTION_REMOVE"
        await dispatch(request=request, event=event, data=data)
    return no_content()


async def add_own_reaction(request: web.Request) -> web.Response:
    """PUT .../reactions/{emoji}/@me."""
    return await _react(request, add=True, user_id=request.app[STATE].bot_id)


async def remove_own_reaction(request: web.Request) -> web.Response:
    """DELETE .../reactions/{emoji}/@me."""
    return await _react(request, add=False, user_id=request.app[STATE].bot_id)


async def remove_user_reaction(request: web.Request) -> web.Response:
    """DELETE .../reactions/{emoji}/{user_id} (the bot may remove anyone's)."""
    return await _react(request, add=False, user_id=request.match_info["user_id"])


def _page_limit(*, query: Mapping[str, str], default: int) -> int:
    """A `limit` query parameter: 1 to 100, else Discord's form error."""
    limit = int(query.get("limit", default))
    if limit > 100:
        message = "int value should be less than or equal to 100."
        raise field_error(field="limit", code="NUMBER_TYPE_MAX", message=message)
    if limit < 1:
        message = "int value should be greater than or equal to 1."
        raise field_error(field="limit", code="NUMBER_TYPE_MIN", message=message)
    return limit


def _on_message(*, stored: JsonDict, key: str) -> bool:
    """Whether anyone reacted to the message with this emoji."""
    return any(messages.emoji_key(emoji=r["emoji"]) == key for r in stored.get("reactions", []))


async def reaction_users(request: web.Request) -> web.Response:
    """GET .../reactions/{emoji}?after&limit&type: the users who reacted with it, by id
    ascending, `limit` (1-100, default 25) after the user id `after`; `type` 0 normal (the
    default) or 1 burst (super reactions: the fake keeps none). A standard emoji nobody used
    gives []; a custom one not on the message 404 Unknown Emoji (the fake knows no others)."""
    state = request.app[STATE]
    channel_id, message_id = path_ids(request)
    state.directory.accessible(channel_id=channel_id)
    emoji = messages.parse_emoji(text=request.match_info["emoji"])
    key = messages.emoji_key(emoji=emoji)
    limit = _page_limit(query=request.query, default=25)
    after = int(request.query.get("after") or 0)
    burst = request.query.get("type") == "1"
    with state.lock:
        stored = state.store.live(channel_id=channel_id, message_id=message_id)
        users: list[str] = []
        for reaction in stored.get("reactions", []):
            if messages.emoji_key(emoji=reaction["emoji"]) == key and not burst:
                users = sorted((u for u in reaction["_users"] if int(u) > after), key=int)
        if not users and emoji["id"] is not None and not _on_message(stored=stored, key=key):
            raise ApiError(status=404, code=10014, message="Unknown Emoji")
        return answer([state.directory.user(user_id=u) for u in users[:limit]])


async def typing(request: web.Request) -> web.Response:
    """POST /channels/{id}/typing."""
    request.app[STATE].directory.accessible(channel_id=request.match_info["channel_id"])
    return no_content()


def add_message_routes(router: web.UrlDispatcher) -> None:
    """Register the message, history and reaction routes."""
    base = f"{API_PREFIX}/channels/{{channel_id}}"
    one = f"{base}/messages/{{message_id}}"
    router.add_get(f"{base}/messages", history)
    router.add_post(f"{base}/messages", create_message)
    router.add_post(f"{base}/messages/bulk-delete", bulk_delete)
    router.add_get(one, get_message)
    router.add_patch(one, edit_message)
    router.add_delete(one, delete_message)
    router.add_post(f"{base}/typing", typing)
    router.add_put(f"{one}/reactions/{{emoji}}/@me", add_own_reaction)
    router.add_delete(f"{one}/reactions/{{emoji}}/@me", remove_own_reaction)
    router.add_delete(f"{one}/reactions/{{emoji}}/{{user_id}}", remove_user_reaction)
    router.add_get(f"{one}/reactions/{{emoji}}", reaction_users)
