"""REST routes that start threads: from a message (same id) or on their own (11 or 12)."""

from __future__ import annotations

from aiohttp import web

from . import messages
from .directory import TEXT_TYPES
from .model import ApiError, JsonDict
from .rest import API_PREFIX, STATE, answer, body_of, dispatch, dispatch_message, path_ids
from .validation import check_thread_name, field_error

ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)


def _archive_duration(*, body: JsonDict) -> int:
    """auto_archive_duration, default a day; 400 unless 60, 1440, 4320 or 10080 minutes."""
    duration = int(body.get("auto_archive_duration") or 1440)
    if duration not in ARCHIVE_DURATIONS:
        message = f"Value must be one of {ARCHIVE_DURATIONS}."
        raise field_error(field="auto_archive_duration", code="BASE_TYPE_CHOICES", message=message)
    return duration


async def thread_from_message(request: web.Request) -> web.Response:
    """POST /channels/{id}/messages/{mid}/threads: the thread takes the message's id."""
    state = request.app[STATE]
    channel_id, message_id = path_ids(request)
    channel = state.directory.accessible(channel_id=channel_id)
    if channel["type"] not in TEXT_TYPES:
        raise ApiError(status=400, code=50024, message="Cannot execute action on this channel type")
    body = body_of(request)
    name, duration = check_thread_name(name=body.get("name")), _archive_duration(body=body)
    with state.lock:
        stored = state.store.live(channel_id=channel_id, message_id=message_id)
        if stored.get("thread"):
            raise ApiError(
                status=400,
                code=160004,
                message="A thread has already been created for this message",
            )
        thread = state.directory.add_thread(
            parent_id=channel_id,
            id=message_id,
            name=name,
            owner_id=state.bot_id,
            private=False,
            joined=[state.bot_id],
        )
        state.directory.channel(channel_id=message_id)["thread_metadata"][
            "auto_archive_duration"
        ] = duration
        thread["thread_metadata"]["auto_archive_duration"] = duration
        stored["thread"] = {k: v for k, v in thread.items() if k != "member"}
        stored["flags"] |= messages.HAS_THREAD
        parent = messages.public(stored=stored)
    await dispatch(request=request, event="THREAD_CREATE", data={**thread, "newly_created": True})
    await dispatch_message(request=request, event="MESSAGE_UPDATE", stored=parent)
    return answer(thread, status=201)


async def thread_without_message(request: web.Request) -> web.Response:
    """POST /channels/{id}/threads: a public (11) or private (12) thread; v10 needs `type`."""
    state = request.app[STATE]
    channel_id, _ = path_ids(request)
    state.directory.accessible(channel_id=channel_id)
    body = body_of(request)
    if body.get("type") not in (11, 12):
        message = "Value must be one of {11, 12}."
        raise field_error(field="type", code="BASE_TYPE_CHOICES", message=message)
    name, duration = check_thread_name(name=body.get("name")), _archive_duration(body=body)
    thread_id = state.ids.next()
    with state.lock:
        state.directory.add_thread(
            parent_id=channel_id,
            id=thread_id,
            name=name,
            owner_id=state.bot_id,
            private=body["type"] == 12,
            joined=[state.bot_id],
        )
        state.directory.channel(channel_id=thread_id)["thread_metadata"][
            "auto_archive_duration"
        ] = duration
        thread = state.directory.thread_view(thread_id=thread_id)
    await dispatch(request=request, event="THREAD_CREATE", data={**thread, "newly_created": True})
    return answer(thread, status=201)


def add_thread_routes(router: web.UrlDispatcher) -> None:
    """Register the two thread-starting routes."""
    base = f"{API_PREFIX}/channels/{{channel_id}}"
    router.add_post(f"{base}/messages/{{message_id}}/threads", thread_from_message)
    router.add_post(f"{base}/threads", thread_without_message)
