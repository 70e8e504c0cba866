"""FakeSlack: the Web API, Socket Mode and response_url endpoints of fake workspaces (one by
default; add_workspace serves more, each with its own tokens, and OAuth installs into them)."""

from __future__ import annotations

import itertools
from types import TracebackType
from typing import Any

from slack_sdk import WebClient

from .http_server import ApiServer
from .model import Channel, Failure, JsonDict, RecordedCall, User
from .people import People
from .registry import Registry
from .socket_mode import SocketModeServer
from .state import Workspace
from .tenants import Tenants
from .web_directs import im_id
from .witness import witness


class FakeSlack(Tenants):
    """A local Slack for tests: point WebClient(base_url=fake.base_url) at it."""

    def __init__(
        self,
        *,
        team_id: str = "T0001",
        team_name: str = "Paper Club Test",
        bot_user_id: str = "U0BOT",
        bot_id: str = "B0BOT",
        bot_name: str = "paperclub",
        app_id: str = "A0APP",
        bot_token: str = "xoxb-test",
        app_token: str = "xapp-test",
        ts_base: int = 1_700_000_000,
        ping_interval: float | None = None,
        history_window: float | None = None,
    ) -> None:
        """`history_window` (seconds) switches on Slack's limits for apps outside the
        Marketplace (conversations.history and .replies: one call per window per workspace and
        method, 15 a page); `fake.limits` switches them, or a tier for any method, later."""
        self.team_id, self.app_id = team_id, app_id
        self.bot_user_id, self.bot_id = bot_user_id, bot_id
        self.bot_token, self.app_token = bot_token, app_token
        self.ws = Workspace(
            team_id=team_id,
            team_name=team_name,
            bot_user_id=bot_user_id,
            bot_id=bot_id,
            bot_name=bot_name,
            app_id=app_id,
            bot_token=bot_token,
            app_token=app_token,
            ts_base=ts_base,
        )
        self.socket_mode = SocketModeServer(self.ws, ping_interval=ping_interval)
        # apps.connections.open hands out the Socket Mode server's URL, or the route's.
        self._socket_mode_route: str | None = None
        self.registry = Registry(self.ws)
        self.limits = self.registry.limits
        if history_window is not None:
            self.limits.non_marketplace(history_window)
        # What people do (react, reply, edit, delete), delivered to the app or dropped.
        self.people = People(self.ws, self.socket_mode)
        self._http = ApiServer(
            self.ws, lambda: self._socket_mode_route or self.socket_mode.url, self.registry
        )
        self.oauth = self._http.oauth
        self._response_n = itertools.count(1)
        self._started = self._stopped = False

    # -- lifecycle ---------------------------------------------------------------------

    def start(self) -> FakeSlack:
        """Start both servers (idempotent)."""
        if not self._started:
            self._started = True
            self.socket_mode.start()
            self._http.start()
        return self

    def stop(self) -> None:
        """Stop both servers and join their threads (idempotent)."""
        if self._started and not self._stopped:
            self._stopped = True
            # Socket Mode first: clients still connected hear 1001 while the Web API is up.
            self.socket_mode.stop()
            self._http.stop()

    def __enter__(self) -> FakeSlack:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    @property
    def http_url(self) -> str:
        """http://127.0.0.1:PORT"""
        return f"http://127.0.0.1:{self._http.port}"

    @property
    def base_url(self) -> str:
        """The Web API base URL (WebClient base_url / SLACK_API_URL): .../api/"""
        return f"{self.http_url}/api/"

    def client(self, **kwargs: Any) -> WebClient:
        """A real slack_sdk WebClient with the bot token, pointed at this fake."""
        kwargs.setdefault("token", self.bot_token)
        return WebClient(base_url=self.base_url, **kwargs)

    # -- workspace setup -----------------------------------------------------------------

    def add_channel(
        self, id: str, name: str, member: bool = True, *, is_private: bool = False
    ) -> None:
        """Create a channel; member=False means the bot is not in it."""
        self.ws.add_channel(Channel(id=id, name=name, is_member=member, is_private=is_private))

    def add_user(
        self,
        id: str,
        name: str,
        is_admin: bool = False,
        is_owner: bool = False,
        *,
        real_name: str = "",
        display_name: str = "",
        tz: str = "Europe/London",
        is_bot: bool = False,
        deleted: bool = False,
    ) -> None:
        """Create a user that users.info will know."""
        self.ws.add_user(
            User(
                id=id,
                name=name,
                is_admin=is_admin,
                is_owner=is_owner,
                is_bot=is_bot,
                deleted=deleted,
                real_name=real_name,
                display_name=display_name,
                tz=tz,
            )
        )

    def add_token(self, token: str) -> None:
        """Accept another token (xapp-... is an app-level token, anything else a bot token)."""
        with self.ws.lock:
            (self.ws.app_tokens if token.startswith("xapp-") else self.ws.bot_tokens).add(token)

    def revoke_token(self, token: str) -> None:
        """Make a token answer token_revoked from now on."""
        with self.ws.lock:
            self.ws.revoked_tokens.add(token)

    def add_message(
        self,
        channel: str,
        text: str,
        user: str,
        *,
        ts: str | None = None,
        thread_ts: str | None = None,
        **extra: Any,
    ) -> str:
        """Seed a message as if a person (or anyone) had posted it -> its ts."""
        message: JsonDict = {"type": "message", "user": user, "text": text, "team": self.team_id}
        message.update(extra)
        message["ts"] = ts or self.ws.next_ts()
        if thread_ts:
            message["thread_ts"] = thread_ts
        return str(self.ws.store_message(channel, message)["ts"])

    # -- inspection ------------------------------------------------------------------------

    def messages(self, channel: str) -> list[JsonDict]:
        """Every stored message in a channel (replies too), oldest first, with 'channel'."""
        return self.ws.messages(channel)

    def message(self, channel: str, ts: str) -> JsonDict:
        """One stored message (a copy); KeyError when absent."""
        for message in self.ws.messages(channel):
            if message["ts"] == ts:
                return message
        raise KeyError(f"no message {ts} in {channel}")

    def directs(self, user: str) -> list[JsonDict]:
        """Every message in the bot's direct message with a person (conversations.open)."""
        return self.ws.messages(im_id(user))

    def ephemerals(self, channel: str) -> list[JsonDict]:
        """Ephemeral messages sent in a channel."""
        return self.ws.ephemerals(channel)

    def calls(self, method: str) -> list[JsonDict]:
        """The arguments of every call to a method (failed ones too), in order."""
        return [c.params for c in self.ws.recorded(method)]

    def requests(self, method: str | None = None) -> list[RecordedCall]:
        """Full call records: method, params, token, HTTP status, answer."""
        return self.ws.recorded(method)

    # -- fault injection ----------------------------------------------------------------------

    def fail_next(
        self,
        method: str,
        status: int | None = None,
        retry_after: int | None = 1,
        times: int = 1,
        *,
        error: str | None = None,
        after_effect: bool = False,
        drop: bool = False,
    ) -> None:
        """Make the next `times` calls fail: 429 by default, or HTTP 200 with error=X.

        status=500/503 gives a server error; drop=True closes the connection with no
        answer. Failures come before any effect unless after_effect=True. `method` may
        also be "response_url" for POSTs to response URLs.
        """
        if status is None:
            status = 200 if error is not None else 429
        failure = Failure(status, error, retry_after, after_effect, drop, times)
        self.ws.add_failure(method, failure)

    def delay_next(self, method: str, seconds: float, times: int = 1) -> None:
        """Hold the next `times` calls for `seconds` before answering (cut short by stop())."""
        self.ws.add_delay(method, seconds, times)

    # -- response_url receiver -------------------------------------------------------------

    def new_response_url(self) -> str:
        """A fresh response_url that records what is POSTed to it."""
        rid = self.ws.new_response_id()
        return f"{self.http_url}/hooks/commands/{self.team_id}/{next(self._response_n)}/{rid}"

    def responses(self, url: str | None = None) -> list[JsonDict]:
        """JSON bodies posted to one response_url (or to any), in order."""
        return self.ws.responses(None if url is None else url.rsplit("/", 1)[-1])

    def wait_response(self, url: str | None = None, timeout: float = 5, count: int = 1) -> JsonDict:
        """Wait until `count` bodies arrived at the URL (or at any); return the last."""
        if not self.ws.wait_for(lambda: len(self.responses(url)) >= count, timeout):
            raise TimeoutError(f"no response_url POST within {timeout}s ({url or 'any'})")
        return self.responses(url)[count - 1]

    # -- Socket Mode shortcuts ------------------------------------------------------------

    def push(self, envelope_type: str, payload: JsonDict, **kwargs: Any) -> str:
        """Send a Socket Mode envelope (see SocketModeServer.push) -> envelope_id; an Events
        API event first becomes true in the workspace's state (see witness)."""
        if envelope_type == "events_api":
            witness(self.ws, payload)
        return self.socket_mode.push(envelope_type, payload, **kwargs)

    def wait_ack(self, envelope_id: str, timeout: float = 5) -> JsonDict:
        """The ack the app sent for an envelope (see SocketModeServer.wait_ack)."""
        return self.socket_mode.wait_ack(envelope_id, timeout)

    def route_socket_mode(self, url: str | None) -> None:
        """Hand out `url` (e.g. a Relay in front of the server) from apps.connections.open;
        None: the server's own URL again."""
        self._socket_mode_route = url

    def wait_connected(self, timeout: float = 5, *, total: int | None = None) -> None:
        """Wait for a Socket Mode client (see SocketModeServer.wait_connected)."""
        self.socket_mode.wait_connected(timeout, total=total)

    def disconnect_all(self, reason: str = "refresh_requested") -> None:
        """Ask every Socket Mode client to reconnect, as Slack does (see SocketModeServer)."""
        self.socket_mode.disconnect_all(reason)
