"""REST routes of Guild Scheduled Events (list, create, get, modify, delete), with Discord's
permission check (Create Events to create and to change one's own events, Manage Events for
any) and its gateway events for a
client that asked for them (GUILD_SCHEDULED_EVENTS intent); and the fake's inspection of them.
"""

from __future__ import annotations

from aiohttp import web

from .gateway import Gateway
from .model import ApiError, JsonDict
from .rest import API_PREFIX, GATEWAY, STATE, answer, body_of, dispatch, no_content
from .scheduled import CREATE_EVENTS, MANAGE_EVENTS, check_event
from .state import State

SCHEDULED_EVENTS_INTENT = 1 << 16


def _guild_id(request: web.Request, *, bits: int) -> str:
    """The route's guild (404 Unknown Guild), 403 Missing Permissions without `bits`."""
    state = request.app[STATE]
    guild_id = request.match_info["guild_id"]
    state.directory.guild(guild_id=guild_id)
    if not state.scheduled.bot_may(guild_id=guild_id, bits=bits):
        raise ApiError(status=403, code=50013, message="Missing Permissions")
    return guild_id


def _own_or_managed(request: web.Request) -> tuple[str, str]:
    """The route's guild and event: 404 Unknown Guild Scheduled Event, 403 unless the bot may
    manage events, or may create them and made this one."""
    state = request.app[STATE]
    guild_id, event_id = request.match_info["guild_id"], request.match_info["id"]
    state.directory.guild(guild_id=guild_id)
    with state.lock:
        own = state.scheduled.live(guild_id=guild_id, event_id=event_id)["creator_id"]
    bits = MANAGE_EVENTS | (CREATE_EVENTS if own == state.bot_id else 0)
    return _guild_id(request, bits=bits), event_id


async def _tell(request: web.Request, *, event: str, data: JsonDict) -> None:
    """Dispatch the change to a client that subscribed to scheduled events."""
    if request.app[GATEWAY].intents & SCHEDULED_EVENTS_INTENT:
        await dispatch(request=request, event=event, data=data)


async def list_events(request: web.Request) -> web.Response:
    """GET /guilds/{guild_id}/scheduled-events."""
    state = request.app[STATE]
    guild_id = request.match_info["guild_id"]
    state.directory.guild(guild_id=guild_id)
    return answer(state.scheduled.of_guild(guild_id=guild_id))


async def create_event(request: web.Request) -> web.Response:
    """POST /guilds/{guild_id}/scheduled-events: 200 with the event, as Discord answers."""
    state = request.app[STATE]
    guild_id = _guild_id(request, bits=MANAGE_EVENTS | CREATE_EVENTS)
    body = body_of(request)
    check_event(body=body, creating=True)
    made = state.scheduled.create(guild_id=guild_id, body=body, creator=state.bot_user())
    await _tell(request, event="GUILD_SCHEDULED_EVENT_CREATE", data=made)
    return answer(made)


async def get_event(request: web.Request) -> web.Response:
    """GET /guilds/{guild_id}/scheduled-events/{event_id}."""
    state = request.app[STATE]
    guild_id = request.match_info["guild_id"]
    state.directory.guild(guild_id=guild_id)
    with state.lock:
        event = dict(state.scheduled.live(guild_id=guild_id, event_id=request.match_info["id"]))
    return answer(event)


async def modify_event(request: web.Request) -> web.Response:
    """PATCH /guilds/{guild_id}/scheduled-events/{event_id}."""
    state = request.app[STATE]
    guild_id, event_id = _own_or_managed(request)
    changed = state.scheduled.modify(guild_id=guild_id, event_id=event_id, body=body_of(request))
    await _tell(request, event="GUILD_SCHEDULED_EVENT_UPDATE", data=changed)
    return answer(changed)


async def delete_event(request: web.Request) -> web.Response:
    """DELETE /guilds/{guild_id}/scheduled-events/{event_id}: 204."""
    state = request.app[STATE]
    guild_id, event_id = _own_or_managed(request)
    gone = state.scheduled.delete(guild_id=guild_id, event_id=event_id)
    await _tell(request, event="GUILD_SCHEDULED_EVENT_DELETE", data=gone)
    return no_content()


def add_scheduled_event_routes(router: web.UrlDispatcher) -> None:
    """Register the scheduled-event routes."""
    base = f"{API_PREFIX}/guilds/{{guild_id}}/scheduled-events"
    router.add_get(base, list_events)
    router.add_post(base, create_event)
    router.add_get(f"{base}/{{id}}", get_event)
    router.add_patch(f"{base}/{{id}}", modify_event)
    router.add_delete(f"{base}/{{id}}", delete_event)


class ScheduledInspection:
    """Mixin for FakeDiscord: the guild's scheduled events, and taking the bot's right to
    manage them away."""

    state: State
    gateway: Gateway
    guild_id: str

    def scheduled_events(self) -> list[JsonDict]:
        """The guild's scheduled events now, oldest first."""
        return self.state.scheduled.of_guild(guild_id=self.guild_id)

    def withhold_manage_events(self) -> None:
        """The bot may no longer make or change events: Create Events and Manage Events taken
        from its role and @everyone (403, code 50013)."""
        self.state.scheduled.withhold(guild_id=self.guild_id, bits=MANAGE_EVENTS | CREATE_EVENTS)
