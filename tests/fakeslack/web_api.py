"""Web API method table: token checks, dispatch, and the read-side methods."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from . import web_chat, web_directs, web_members, web_reads, web_views
from .model import ApiError, JsonDict
from .params import bool_arg, member_channel, message_view, text_arg, window
from .state import Workspace

# Slack sends the granted scopes on every answer; Bolt copies them into context.bot_scopes.
BOT_SCOPES = (
    "channels:history,channels:read,chat:write,commands,groups:history,groups:read,"
    "im:write,metadata.message:read,reactions:read,reactions:write,users:read"
)
WORKSPACE_URL = "https://fake.slack.test/"

Method = Callable[[Workspace, JsonDict, "Context"], JsonDict]


@dataclass(frozen=True)
class Context:
    """What a method may need beyond its arguments."""

    socket_mode_url: str


@dataclass(frozen=True)
class Answer:
    """A method's JSON body plus the extra headers Slack would send with it."""

    body: JsonDict
    headers: dict[str, str]


def _api_test(ws: Workspace, params: JsonDict, ctx: Context) -> JsonDict:
    return {"args": dict(params)}


def _auth_test(ws: Workspace, params: JsonDict, ctx: Context) -> JsonDict:
    return {
        "url": WORKSPACE_URL,
        "team": ws.team_name,
        "user": ws.bot_name,
        "team_id": ws.team_id,
        "user_id": ws.bot_user_id,
        "bot_id": ws.bot_id,
        "is_enterprise_install": False,
    }


def _bots_info(ws: Workspace, params: JsonDict, ctx: Context) -> JsonDict:
    if text_arg(params, "bot") != ws.bot_id:
        raise ApiError("bot_not_found")
    return {
        "bot": {
            "id": ws.bot_id,
            "app_id": ws.app_id,
            "user_id": ws.bot_user_id,
            "name": ws.bot_name,
            "deleted": False,
        }
    }


def _apps_connections_open(ws: Workspace, params: JsonDict, ctx: Context) -> JsonDict:
    # Real URLs look like wss://wss-primary.slack.com/link/?ticket=...&app_id=...; the path
    # matters: slack_sdk's built-in client sends "GET {path}?{query}" verbatim.
    ticket = ws.issue_ticket()
    return {"url": f"{ctx.socket_mode_url}/link/?ticket={ticket}&app_id={ws.app_id}"}


def _users_info(ws: Workspace, params: JsonDict, ctx: Context) -> JsonDict:
    user = ws.users.get(text_arg(params, "user"))
    if user is None:
        raise ApiError("user_not_found")
    display = user.display_name
    real = user.real_name or user.name
    return {
        "user": {
            "id": user.id,
            "team_id": ws.team_id,
            "name": user.name,
            "deleted": user.deleted,
            "real_name": real,
            "tz": user.tz,
            "tz_offset": user.tz_offset,
            "is_admin": user.is_admin,
            "is_owner": user.is_owner,
            "is_primary_owner": False,
            "is_restricted": False,
            "is_ultra_restricted": False,
            "is_bot": user.is_bot,
            "is_app_user": False,
            "profile": {
                "real_name": real,
                "real_name_normalized": real,
                "display_name": display,
                "display_name_normalized": display,
                "team": ws.team_id,
            },
        }
    }


def _conversations_info(ws: Workspace, params: JsonDict, ctx: Context) -> JsonDict:
    channel = ws.find_channel(text_arg(params, "channel"))
    if channel.is_private and not channel.is_member:
        raise ApiError("channel_not_found")
    if channel.is_im:
        return {"channel": web_directs.im_info(ws, channel)}
    return {
        "channel": {
            "id": channel.id,
            "name": channel.name,
            "name_normalized": channel.name,
            "is_channel": not channel.is_private,
            "is_group": False,
            "is_im": False,
            "is_mpim": False,
            "is_private": channel.is_private,
            "is_archived": False,
            "is_general": channel.name == "general",
            "is_member": channel.is_member,
            "created": channel.created,
            "context_team_id": ws.team_id,
        }
    }


def _conversations_join(ws: Workspace, params: JsonDict, ctx: Context) -> JsonDict:
    channel = ws.find_channel(text_arg(params, "channel"))
    if channel.is_private:
        raise ApiError("method_not_supported_for_channel_type")
    channel.is_member = True
    return _conversations_info(ws, {"channel": channel.id}, ctx)


def _page_answer(page: list[JsonDict], next_cursor: str, params: JsonDict) -> JsonDict:
    with_metadata = bool_arg(params, "include_all_metadata")
    answer: JsonDict = {
        "messages": [message_view(m, include_metadata=with_metadata) for m in page],
        "has_more": bool(next_cursor),
    }
    if next_cursor:
        answer["response_metadata"] = {"next_cursor": next_cursor}
    return answer


def _conversations_history(ws: Workspace, params: JsonDict, ctx: Context) -> JsonDict:
    channel = member_channel(ws, params)
    # History shows top-level messages and thread parents; replies only when broadcast.
    visible = [
        m
        for m in ws.all_messages(channel)
        if m.get("thread_ts") in (None, m["ts"]) or m.get("subtype") == "thread_broadcast"
    ]
    page, next_cursor = window(visible, params, newest_first=True, default_limit=100)
    answer = _page_answer(page, next_cursor, params)
    answer.update({"pin_count": 0, "channel_actions_ts": None, "channel_actions_count": 0})
    return answer


def _chat(method: Callable[[Workspace, JsonDict], JsonDict]) -> Method:
    return lambda ws, params, ctx: method(ws, params)


# method name -> (implementation, kind of token it needs; None: no token needed)
METHODS: dict[str, tuple[Method, str | None]] = {
    "api.test": (_api_test, None),
    "auth.test": (_auth_test, "bot"),
    "apps.connections.open": (_apps_connections_open, "app"),
    "users.info": (_users_info, "bot"),
    "bots.info": (_bots_info, "bot"),
    "conversations.info": (_conversations_info, "bot"),
    "conversations.join": (_conversations_join, "bot"),
    "conversations.open": (_chat(web_directs.conversations_open), "bot"),
    "conversations.history": (_conversations_history, "bot"),
    "conversations.replies": (_chat(web_reads.conversations_replies), "bot"),
    "reactions.get": (_chat(web_reads.reactions_get), "bot"),
    "chat.postMessage": (_chat(web_chat.chat_post_message), "bot"),
    "chat.update": (_chat(web_chat.chat_update), "bot"),
    "chat.postEphemeral": (_chat(web_chat.chat_post_ephemeral), "bot"),
    "chat.getPermalink": (_chat(web_chat.chat_get_permalink), "bot"),
    "reactions.add": (_chat(web_chat.reactions_add), "bot"),
    "reactions.remove": (_chat(web_chat.reactions_remove), "bot"),
    "views.publish": (_chat(web_views.views_publish), "bot"),
    "views.open": (_chat(web_views.views_open), "bot"),
    "users.conversations": (_chat(web_members.users_conversations), "bot"),
}

_TOKEN_ERRORS = {"missing": "not_authed", "revoked": "token_revoked", "invalid": "invalid_auth"}


def call(ws: Workspace, method: str, params: JsonDict, token: str | None, ctx: Context) -> Answer:
    """Run one Web API method atomically and build Slack's JSON answer."""
    headers: dict[str, str] = {}
    entry = METHODS.get(method)
    if entry is None:
        return Answer({"ok": False, "error": "unknown_method"}, headers)
    implementation, needs = entry
    kind = ws.token_kind(token)
    if kind == "bot":
        headers["x-oauth-scopes"] = BOT_SCOPES
    if needs is not None:
        if kind in _TOKEN_ERRORS:
            return Answer({"ok": False, "error": _TOKEN_ERRORS[kind]}, headers)
        if kind != needs:
            # e.g. an xoxb token on apps.connections.open, or xapp on chat.postMessage.
            return Answer({"ok": False, "error": "not_allowed_token_type"}, headers)
    try:
        with ws.lock:
            body = implementation(ws, params, ctx)
    except ApiError as e:
        failed: JsonDict = {"ok": False, "error": e.error}
        if e.messages:
            failed["response_metadata"] = {"messages": e.messages}
        return Answer(failed, headers)
    return Answer({"ok": True, **body}, headers)
