"""REST route for direct messages: POST /users/@me/channels (directs.py keeps the channels;
messages in them go through the message routes)."""

from __future__ import annotations

from aiohttp import web

from .rest import API_PREFIX, STATE, answer, body_of
from .validation import field_error


async def open_dm(request: web.Request) -> web.Response:
    """POST /users/@me/channels {"recipient_id": id}: the DM channel with that person."""
    recipient = body_of(request).get("recipient_id")
    if recipient is None or not str(recipient).isdigit():
        raise field_error(
            field="recipient_id", code="NUMBER_TYPE_COERCE", message="Value is not snowflake."
        )
    return answer(request.app[STATE].directs.open(recipient_id=str(recipient)))


def add_direct_routes(router: web.UrlDispatcher) -> None:
    """Register the DM route."""
    router.add_post(f"{API_PREFIX}/users/@me/channels", open_dm)
