"""REST routes for interaction callbacks and the interaction webhook (original, followups)."""

from __future__ import annotations

from aiohttp import web

from . import messages
from .interactions import (
    ALLOWED_CALLBACKS,
    APPLICATION_COMMAND,
    CHANNEL_MESSAGE,
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE,
    MODAL,
    UPDATE_MESSAGE,
    InteractionRecord,
    callback_answer,
)
from .modals import check_modal
from .model import JsonDict, unknown
from .rest import (
    API_PREFIX,
    STATE,
    answer,
    body_of,
    dispatch,
    dispatch_message,
    files_of,
    no_content,
)
from .validation import check_message, field_error

_TRUE = ("1", "true", "True")


def _metadata(
    *, request: web.Request, record: InteractionRecord, followup_of: str | None
) -> JsonDict:
    """interaction_metadata (and the legacy `interaction`) of a response message."""
    state = request.app[STATE]
    user = state.directory.user(user_id=record.user_id)
    meta: JsonDict = {
        "id": record.id,
        "type": record.type,
        "user": user,
        "authorizing_integration_owners": {"0": record.guild_id},
    }
    if record.type == APPLICATION_COMMAND:
        meta["name"] = record.payload["data"]["name"]
        meta["command_type"] = 1
    if record.message_id is not None:
        meta["interacted_message_id"] = record.message_id
    if followup_of is not None:
        meta["original_response_message_id"] = followup_of
    legacy = {"id": record.id, "type": record.type, "name": meta.get("name", ""), "user": user}
    return {"interaction_metadata": meta, "interaction": legacy}


async def _new_message(
    *,
    request: web.Request,
    record: InteractionRecord,
    data: JsonDict,
    flags: int,
    followup_of: str | None,
) -> JsonDict:
    """A response or followup message: kept aside when ephemeral, else posted to the channel."""
    state = request.app[STATE]
    body = {**data, "flags": flags}
    extra = _metadata(request=request, record=record, followup_of=followup_of)
    extra["type"] = 20 if record.type == APPLICATION_COMMAND and followup_of is None else 0
    author, app_id = state.bot_user(), state.app_id
    if flags & messages.EPHEMERAL:
        made = messages.message(
            id=state.ids.next(),
            channel_id=record.channel_id,
            author=author,
            content=str(body.get("content") or ""),
            embeds=body.get("embeds"),
            components=body.get("components"),
            flags=flags,
            webhook_id=app_id,
            application_id=app_id,
        )
        made.update(extra)
        with state.lock:
            state.interactions.ephemerals[made["id"]] = made
        state.journal.notify()
        return messages.public(stored=made)
    made, _ = state.store.create(
        channel_id=record.channel_id,
        author=author,
        body=body,
        webhook_id=app_id,
        application_id=app_id,
        extra=extra,
    )
    await dispatch_message(request=request, event="MESSAGE_CREATE", stored=made)
    return made


async def _edit(*, request: web.Request, message_id: str, body: JsonDict) -> JsonDict:
    """Edit an interaction's message, ephemeral or not (the bot is always its author)."""
    state = request.app[STATE]
    with state.lock:
        ephemeral = state.interactions.ephemerals.get(message_id)
        if ephemeral is not None:
            messages.apply_edit(stored=ephemeral, body=body)
            edited = messages.public(stored=ephemeral)
    if ephemeral is not None:
        state.journal.notify()
        return edited
    stored = state.store.get(channel_id=None, message_id=message_id)
    edited = state.store.edit(
        channel_id=stored["channel_id"], message_id=message_id, body=body, editor_id=state.bot_id
    )
    await dispatch_message(request=request, event="MESSAGE_UPDATE", stored=edited)
    return edited


async def callback(request: web.Request) -> web.Response:
    """POST /interactions/{id}/{token}/callback: types 4, 5, 6, 7 (and 1, 9)."""
    state = request.app[STATE]
    body = body_of(request)
    cb_type, data = body.get("type"), body.get("data") or {}
    record = state.interactions.for_callback(
        interaction_id=request.match_info["interaction_id"], token=request.match_info["token"]
    )
    if cb_type not in ALLOWED_CALLBACKS.get(record.type, set()):
        invalid = "Invalid interaction response type"
        raise field_error(field="type", code="INTERACTION_RESPONSE_TYPE_INVALID", message=invalid)
    if cb_type == CHANNEL_MESSAGE:
        check_message(body=data, has_files=bool(files_of(request)))
    elif cb_type == UPDATE_MESSAGE:
        check_message(body=data, editing=True)
    elif cb_type == MODAL:
        check_modal(body=data)
    with state.lock:
        # Claimed under the lock: of two racing callbacks, the second hears 40060.
        state.interactions.for_callback(interaction_id=record.id, token=record.token)
        live = state.interactions.lookup(interaction_id=record.id)
        live.callbacks.append({"type": cb_type, "data": data})
    message: JsonDict | None = None
    flags = int(data.get("flags") or 0) & messages.EPHEMERAL
    if cb_type == CHANNEL_MESSAGE:
        message = await _new_message(
            request=request, record=live, data=data, flags=flags, followup_of=None
        )
    elif cb_type == DEFERRED_CHANNEL_MESSAGE:
        message = await _new_message(
            request=request, record=live, data={}, flags=flags | messages.LOADING, followup_of=None
        )
    elif cb_type == UPDATE_MESSAGE and live.message_id is not None:
        message = await _edit(request=request, message_id=live.message_id, body=data)
    with state.lock:
        if cb_type in (CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE) and message is not None:
            live.original_id, live.original_ephemeral = message["id"], bool(flags)
            live.loading = cb_type == DEFERRED_CHANNEL_MESSAGE
        elif cb_type in (DEFERRED_UPDATE, UPDATE_MESSAGE):
            # For component updates, "@original" is the message the component sits on.
            live.original_id = live.message_id
    state.journal.notify()
    if request.query.get("with_response") in _TRUE:
        return answer(callback_answer(record=live, cb_type=int(cb_type), message=message))
    return no_content()


def _webhook_record(request: web.Request) -> InteractionRecord:
    """The interaction a webhook URL is for (404 Unknown Webhook for another app id)."""
    state = request.app[STATE]
    if request.match_info["app_id"] != state.app_id:
        raise unknown(what="Webhook", code=10015)
    return state.interactions.for_webhook(token=request.match_info["token"])


def _message_id(*, record: InteractionRecord, raw: str) -> str:
    """Resolve "@original" (or a followup id) to a message of this interaction."""
    if raw != "@original":
        if raw not in record.followup_ids and raw != record.original_id:
            raise unknown(what="Message", code=10008)
        return raw
    if record.original_id is None:
        raise unknown(what="Message", code=10008)
    return record.original_id


def _find(*, request: web.Request, message_id: str) -> JsonDict:
    """A copy of an interaction message, ephemeral or in its channel."""
    state = request.app[STATE]
    with state.lock:
        ephemeral = state.interactions.ephemerals.get(message_id)
        if ephemeral is not None:
            return messages.public(stored=ephemeral)
    return state.store.get(channel_id=None, message_id=message_id)


async def followup(request: web.Request) -> web.Response:
    """POST /webhooks/{app}/{token}: the first one after a defer fills the loading message."""
    state = request.app[STATE]
    record = _webhook_record(request)
    body = body_of(request)
    check_message(body=body, has_files=bool(files_of(request)))
    with state.lock:
        live = state.interactions.lookup(interaction_id=record.id)
        fills_original = live.loading and live.original_id is not None
        live.loading = False
    if fills_original and live.original_id is not None:
        made = await _edit(request=request, message_id=live.original_id, body=body)
    else:
        flags = int(body.get("flags") or 0) & messages.EPHEMERAL
        made = await _new_message(
            request=request, record=live, data=body, flags=flags, followup_of=live.original_id
        )
    with state.lock:
        live.followup_ids.append(made["id"])
    state.journal.notify()
    return answer(made) if request.query.get("wait") in _TRUE else no_content()


async def webhook_message(request: web.Request) -> web.Response:
    """GET, PATCH or DELETE /webhooks/{app}/{token}/messages/{@original|id}."""
    state = request.app[STATE]
    record = _webhook_record(request)
    message_id = _message_id(record=record, raw=request.match_info["message_id"])
    if request.method == "GET":
        return answer(_find(request=request, message_id=message_id))
    if request.method == "PATCH":
        body = body_of(request)
        check_message(body=body, editing=True)
        with state.lock:
            state.interactions.lookup(interaction_id=record.id).loading = False
        return answer(await _edit(request=request, message_id=message_id, body=body))
    with state.lock:
        ephemeral = state.interactions.ephemerals.pop(message_id, None)
    if ephemeral is None:
        stored = state.store.get(channel_id=None, message_id=message_id)
        state.store.delete(channel_id=stored["channel_id"], message_id=message_id)
        data = messages.delete_event(
            message_id=message_id, channel_id=stored["channel_id"], guild_id=record.guild_id
        )
        await dispatch(request=request, event="MESSAGE_DELETE", data=data)
    state.journal.notify()
    return no_content()


def add_interaction_routes(router: web.UrlDispatcher) -> None:
    """Register the callback and interaction-webhook routes."""
    router.add_post(f"{API_PREFIX}/interactions/{{interaction_id}}/{{token}}/callback", callback)
    hook = f"{API_PREFIX}/webhooks/{{app_id}}/{{token}}"
    router.add_post(hook, followup)
    for method in ("GET", "PATCH", "DELETE"):
        router.add_route(method, f"{hook}/messages/{{message_id}}", webhook_message)
