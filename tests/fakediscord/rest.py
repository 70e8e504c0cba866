"""The REST API (v10): recording, auth and fault middleware, plus the directory routes."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from .gateway import Gateway
from .journal import failure_answer
from .model import ApiError, JsonDict, RecordedRequest
from .payloads import current_user
from .state import State
from .validation import check_commands

API_PREFIX = "/api/v10"
STATE = web.AppKey("state", State)
GATEWAY = web.AppKey("gateway", Gateway)
URLS = web.AppKey("urls", dict[str, str])
BODY = web.RequestKey("body", object)
FILES = web.RequestKey("files", list[JsonDict])
# Paths that take no bot token: interaction callbacks and webhooks carry their own.
_UNAUTHENTICATED = ("/webhooks/", "/interactions/")
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def answer(payload: Any, *, status: int = 200) -> web.Response:
    """A JSON answer with exactly "Content-Type: application/json", as Discord sends.

    discord.py compares the header to that string: aiohttp's json_response adds
    "; charset=utf-8", and discord.py would then hand the raw text on as the payload.
    """
    data = json.dumps(payload).encode()
    return web.Response(body=data, status=status, headers={"Content-Type": "application/json"})


def no_content() -> web.Response:
    """204 No Content, as Discord answers deletes and reactions."""
    return web.Response(status=204)


def body_of(request: web.Request) -> JsonDict:
    """The request's JSON body (or a multipart request's payload_json), {} if none."""
    body = request.get(BODY)
    return body if isinstance(body, dict) else {}


def files_of(request: web.Request) -> list[JsonDict]:
    """The files of a multipart request (field, filename, content_type, size)."""
    return list(request.get(FILES) or [])


async def _read_body(request: web.Request) -> tuple[Any, list[JsonDict]]:
    """The body (JSON, multipart payload_json, or text) and any uploaded files."""
    if request.content_type == "multipart/form-data":
        form = await request.post()
        files = [
            {
                "field": k,
                "filename": v.filename,
                "content_type": v.content_type,
                "size": len(v.file.read()),
            }
            for k, v in form.items()
            if isinstance(v, web.FileField)
        ]
        raw = form.get("payload_json")
        return (json.loads(str(raw)) if raw is not None else None), files
    raw_bytes = await request.read()
    if not raw_bytes:
        return None, []
    try:
        return json.loads(raw_bytes), []
    except ValueError:
        return raw_bytes.decode("utf-8", "replace"), []


@web.middleware
async def discord_middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Record every API request, inject faults, check the token, shape errors as Discord."""
    if not request.path.startswith(API_PREFIX + "/"):
        return await handler(request)  # the gateway WebSocket
    state = request.app[STATE]
    path = request.path.removeprefix(API_PREFIX)
    body, files = await _read_body(request)
    request[BODY], request[FILES] = body, files
    verdict = state.limits.take(method=request.method, path=path)
    headers = {"Via": "1.1 google", **verdict.headers}
    failure = state.journal.take_failure(method=request.method, path=path)
    token_ok = request.headers.get("Authorization") == f"Bot {state.token}"
    response: web.StreamResponse
    if failure is not None:
        payload, extra = failure_answer(failure=failure)
        # Via matters: discord.py treats a 429 without it as a Cloudflare ban and gives up.
        response = answer(payload, status=failure.status)
        headers.update(extra)
    elif not token_ok and not path.startswith(_UNAUTHENTICATED) and path != "/gateway":
        response = answer({"message": "401: Unauthorized", "code": 0}, status=401)
    elif verdict.refused is not None:
        response = answer(verdict.refused, status=429)
    else:
        try:
            response = await handler(request)
        except ApiError as error:
            response = answer(error.body(), status=error.status)
        except web.HTTPException as error:
            response = answer(
                {"message": f"{error.status}: {error.reason}", "code": 0}, status=error.status
            )
    response.headers.update(headers)
    recorded = None
    if (
        isinstance(response, web.Response)
        and response.body
        and response.content_type == "application/json"
    ):
        recorded = json.loads(bytes(response.body))  # type: ignore[arg-type]
    state.journal.record(
        request=RecordedRequest(
            method=request.method,
            path=path,
            query=dict(request.query),
            json=body,
            headers=dict(request.headers),
            status=response.status,
            response=recorded,
            files=files,
        )
    )
    return response


def path_ids(request: web.Request) -> tuple[str, str]:
    """The {channel_id} and {message_id} of a route ("" where the route has none)."""
    return request.match_info["channel_id"], request.match_info.get("message_id", "")


async def dispatch(*, request: web.Request, event: str, data: JsonDict) -> None:
    """Tell the connected client (if any) what this request changed."""
    await request.app[GATEWAY].dispatch(event=event, data=data, require_client=False)


async def dispatch_message(*, request: web.Request, event: str, stored: JsonDict) -> None:
    """Dispatch MESSAGE_CREATE/UPDATE for a message, shaped for the client's intents."""
    state, gateway = request.app[STATE], request.app[GATEWAY]
    if state.directs.is_dm(channel_id=stored["channel_id"]):
        data = state.directs.event(stored=stored, intents=gateway.intents)
        if data is not None:
            await dispatch(request=request, event=event, data=data)
        return
    await dispatch(
        request=request,
        event=event,
        data=state.message_event(stored=stored, intents=gateway.intents),
    )


# -- directory routes ------------------------------------------------------------------------


async def get_gateway(request: web.Request) -> web.Response:
    """GET /gateway."""
    return answer({"url": request.app[URLS]["gateway"]})


async def get_gateway_bot(request: web.Request) -> web.Response:
    """GET /gateway/bot: one shard, plenty of session starts left."""
    limit = {"total": 1000, "remaining": 999, "reset_after": 14_400_000, "max_concurrency": 1}
    return answer({"url": request.app[URLS]["gateway"], "shards": 1, "session_start_limit": limit})


async def get_me(request: web.Request) -> web.Response:
    """GET /users/@me."""
    return answer(current_user(base=request.app[STATE].bot_user()))


async def get_user(request: web.Request) -> web.Response:
    """GET /users/{user_id}."""
    return answer(request.app[STATE].directory.user(user_id=request.match_info["user_id"]))


async def get_application(request: web.Request) -> web.Response:
    """GET /oauth2/applications/@me (and /applications/@me)."""
    return answer(request.app[STATE].application())


def _command_scope(request: web.Request) -> str | None:
    """The guild of a command route (None: global); 404 for another app or an unknown guild."""
    state = request.app[STATE]
    if request.match_info["app_id"] != state.app_id:
        raise ApiError(status=404, code=10002, message="Unknown Application")
    guild_id = request.match_info.get("guild_id")
    if guild_id is not None:
        state.directory.guild(guild_id=guild_id)
    return guild_id


async def get_commands(request: web.Request) -> web.Response:
    """GET /applications/{app}/commands or .../guilds/{guild}/commands."""
    return answer(request.app[STATE].directory.commands(guild_id=_command_scope(request)))


async def put_commands(request: web.Request) -> web.Response:
    """PUT (bulk overwrite) a scope's commands."""
    scope = _command_scope(request)
    specs = check_commands(specs=request.get(BODY))
    return answer(request.app[STATE].directory.set_commands(guild_id=scope, specs=specs))


async def post_command(request: web.Request) -> web.Response:
    """POST one command: create, or replace the one of the same name (201 / 200)."""
    scope = _command_scope(request)
    directory = request.app[STATE].directory
    spec = check_commands(specs=[body_of(request)])[0]
    with directory.lock:
        others = [c for c in directory.commands(guild_id=scope) if c["name"] != spec["name"]]
        existed = len(others) < len(directory.commands(guild_id=scope))
        stored = directory.set_commands(guild_id=scope, specs=[*others, spec])
    created = next(c for c in stored if c["name"] == spec["name"])
    return answer(created, status=200 if existed else 201)


async def get_guild(request: web.Request) -> web.Response:
    """GET /guilds/{guild_id} (with_counts adds the approximate counts)."""
    directory = request.app[STATE].directory
    guild_id = request.match_info["guild_id"]
    payload = directory.rest_guild(guild_id=guild_id)
    if request.query.get("with_counts") in ("true", "1", "True"):
        members = len(directory.guild(guild_id=guild_id).member_ids)
        payload.update(approximate_member_count=members, approximate_presence_count=0)
    return answer(payload)


async def get_guild_channels(request: web.Request) -> web.Response:
    """GET /guilds/{guild_id}/channels (no threads, as Discord)."""
    directory = request.app[STATE].directory
    guild = directory.guild(guild_id=request.match_info["guild_id"])
    return answer([directory.channel(channel_id=c) for c in guild.channel_ids])


async def get_active_threads(request: web.Request) -> web.Response:
    """GET /guilds/{guild_id}/threads/active."""
    directory = request.app[STATE].directory
    guild = directory.guild(guild_id=request.match_info["guild_id"])
    threads = [directory.thread_view(thread_id=t) for t in guild.thread_ids]
    members = [t["member"] for t in threads if "member" in t]
    return answer({"threads": threads, "members": members})


async def get_member(request: web.Request) -> web.Response:
    """GET /guilds/{guild_id}/members/{user_id}."""
    directory = request.app[STATE].directory
    guild_id = request.match_info["guild_id"]
    directory.guild(guild_id=guild_id)
    return answer(directory.member(guild_id=guild_id, user_id=request.match_info["user_id"]))


async def get_channel(request: web.Request) -> web.Response:
    """GET /channels/{channel_id}: 404 Unknown Channel, 403 Missing Access when refused."""
    return answer(
        request.app[STATE].directory.channel_view(channel_id=request.match_info["channel_id"])
    )


def add_directory_routes(router: web.UrlDispatcher) -> None:
    """Register the gateway, user, application, command, guild and channel routes."""
    api = API_PREFIX
    router.add_get(f"{api}/gateway", get_gateway)
    router.add_get(f"{api}/gateway/bot", get_gateway_bot)
    router.add_get(f"{api}/users/@me", get_me)
    router.add_get(f"{api}/users/{{user_id}}", get_user)
    router.add_get(f"{api}/oauth2/applications/@me", get_application)
    router.add_get(f"{api}/applications/@me", get_application)
    for scope in (
        "/applications/{app_id}/commands",
        "/applications/{app_id}/guilds/{guild_id}/commands",
    ):
        router.add_get(api + scope, get_commands)
        router.add_put(api + scope, put_commands)
        router.add_post(api + scope, post_command)
    router.add_get(f"{api}/guilds/{{guild_id}}", get_guild)
    router.add_get(f"{api}/guilds/{{guild_id}}/channels", get_guild_channels)
    router.add_get(f"{api}/guilds/{{guild_id}}/threads/active", get_active_threads)
    router.add_get(f"{api}/guilds/{{guild_id}}/members/{{user_id}}", get_member)
    router.add_get(f"{api}/channels/{{channel_id}}", get_channel)
