"""Slack's OAuth v2 as the fake plays it: the authorize step (a person clicks "Allow" in one
workspace, the browser is sent back with a one-time code) and oauth.v2.access, which trades the
code for a bot token, with the app's client id and secret in HTTP Basic auth."""

from __future__ import annotations

import base64
import binascii
import itertools
import secrets
import threading
from dataclasses import dataclass
from urllib.parse import parse_qsl, urlencode, urlsplit

from .model import ApiError, JsonDict
from .registry import Registry


@dataclass(frozen=True)
class OAuthApp:
    """A distributed app's credentials and its configured redirect URL."""

    client_id: str
    client_secret: str
    redirect_uri: str


@dataclass(frozen=True)
class _Grant:
    """What a person approved: the code's team, scopes and the redirect it was issued for."""

    team_id: str
    scope: str
    user_scope: str
    redirect_uri: str
    user_id: str


class OAuthServer:
    """Codes and apps; thread-safe."""

    def __init__(self, registry: Registry) -> None:
        self.registry = self._registry = registry
        # The team whose person "clicks Allow" when a browser GETs /oauth/v2/authorize.
        self.signed_in_team = registry.primary.team_id
        self._lock = threading.Lock()
        self._apps: dict[str, OAuthApp] = {}
        self._codes: dict[str, _Grant] = {}
        self._n = itertools.count(1)

    def register(self, app: OAuthApp) -> None:
        """Create (or reconfigure) an app that can be installed."""
        with self._lock:
            self._apps[app.client_id] = app

    def authorize(self, url: str, *, team_id: str, user_id: str = "U0INSTALLER") -> str:
        """A person in `team_id` opened the authorize URL and clicked Allow -> the redirect
        URL (redirect_uri?code=...&state=...); ApiError for an unknown app or redirect."""
        query = dict(parse_qsl(urlsplit(url).query, keep_blank_values=True))
        with self._lock:
            app = self._apps.get(query.get("client_id", ""))
            if app is None:
                raise ApiError("invalid_client_id")
            redirect = query.get("redirect_uri") or app.redirect_uri
            if redirect != app.redirect_uri:
                raise ApiError("bad_redirect_uri")
            self._registry.get(team_id)  # KeyError: the fake serves no such team
            code = f"{next(self._n)}.{secrets.token_hex(8)}"
            self._codes[code] = _Grant(
                team_id=team_id,
                scope=query.get("scope", ""),
                user_scope=query.get("user_scope", ""),
                redirect_uri=query.get("redirect_uri", ""),
                user_id=user_id,
            )
        answer = {"code": code}
        if "state" in query:
            answer["state"] = query["state"]
        return f"{redirect}{'&' if '?' in redirect else '?'}{urlencode(answer)}"

    def access(self, *, authorization: str, params: JsonDict) -> tuple[str | None, JsonDict]:
        """oauth.v2.access -> (the team it installed into, the answer without "ok");
        ApiError as Slack answers a bad client, secret, code or redirect."""
        client_id, client_secret = _credentials(authorization=authorization, params=params)
        with self._lock:
            app = self._apps.get(client_id)
            if app is None:
                raise ApiError("invalid_client_id")
            if not secrets.compare_digest(client_secret.encode(), app.client_secret.encode()):
                raise ApiError("bad_client_secret")
            # One use only, as Slack: a replayed code fails even with the right secret.
            grant = self._codes.pop(str(params.get("code", "")), None)
            if grant is None:
                raise ApiError("invalid_code")
            if str(params.get("redirect_uri", "")) != grant.redirect_uri:
                raise ApiError("bad_redirect_uri")
            n = next(self._n)
        ws = self._registry.get(grant.team_id)
        token = f"xoxb-{ws.team_id}-{n}-{secrets.token_hex(12)}"
        with ws.lock:
            ws.bot_tokens.add(token)
        authed_user: JsonDict = {"id": grant.user_id}
        if grant.user_scope:
            user_token = f"xoxp-{ws.team_id}-{n}-{secrets.token_hex(12)}"
            with ws.lock:
                ws.bot_tokens.add(user_token)  # good enough: the fake has no user-token methods
            authed_user.update(scope=grant.user_scope, access_token=user_token, token_type="user")
        return ws.team_id, {
            "app_id": ws.app_id,
            "authed_user": authed_user,
            "scope": grant.scope,
            "token_type": "bot",
            "access_token": token,
            "bot_user_id": ws.bot_user_id,
            "team": {"id": ws.team_id, "name": ws.team_name},
            "enterprise": None,
            "is_enterprise_install": False,
        }


def _credentials(*, authorization: str, params: JsonDict) -> tuple[str, str]:
    """client_id and client_secret from HTTP Basic auth (slack_sdk's way), else the body."""
    if authorization.startswith("Basic "):
        try:
            decoded = base64.b64decode(authorization.removeprefix("Basic "), validate=True)
            client_id, _, client_secret = decoded.decode("utf-8").partition(":")
        except (binascii.Error, UnicodeDecodeError):
            raise ApiError("invalid_client_id") from None
        return client_id, client_secret
    return str(params.get("client_id", "")), str(params.get("client_secret", ""))
