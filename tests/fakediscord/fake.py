"""FakeDiscord: the REST API and the gateway of one fake guild, on one loopback port."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from types import TracebackType
from typing import Any

from aiohttp import web

from .gateway import INVALID_SESSION, RECONNECT, Gateway
from .interactions import InteractionRecord
from .journal import make_failure
from .modal_actions import ModalActions
from .model import JsonDict, RecordedRequest
from .people import People
from .rest import GATEWAY, STATE, URLS, add_directory_routes, discord_middleware
from .rest_directs import add_direct_routes
from .rest_events import ScheduledInspection, add_scheduled_event_routes
from .rest_interactions import add_interaction_routes
from .rest_messages import add_message_routes
from .rest_threads import add_thread_routes
from .server import LoopServer
from .state import State
from .waiting import Waiting

BOT_ID = "1100000000000000001"  # the application id too, as for every bot made since 2019
GUILD_ID = "1100000000000000100"
GENERAL_ID = "1100000000000000200"
ALICE_ID, BOB_ID = "1100000000000000301", "1100000000000000302"


class FakeDiscord(ModalActions, ScheduledInspection, Waiting):
    """A local Discord for tests: point discord.py's Route.BASE and DEFAULT_GATEWAY at it."""

    def __init__(
        self,
        *,
        token: str = "fake-bot-token",
        bot_name: str = "paperclub",
        guild_name: str = "Paper Club Test",
        heartbeat_interval_ms: int = 41_250,
        compress: bool = True,
    ) -> None:
        self.token, self.bot_id, self.app_id = token, BOT_ID, BOT_ID
        self.guild_id, self.channel_id = GUILD_ID, GENERAL_ID
        self.alice_id, self.bob_id = ALICE_ID, BOB_ID
        self.default_user_id = ALICE_ID
        self.state = State(token=token, bot_id=BOT_ID, bot_name=bot_name, app_id=BOT_ID)
        directory = self.state.directory
        directory.add_user(id=ALICE_ID, username="alice", global_name="Alice A", bot=False)
        directory.add_user(id=BOB_ID, username="bob", global_name=None, bot=False)
        self.state.owner_id = BOB_ID
        directory.add_guild(id=GUILD_ID, name=guild_name, owner_id=BOB_ID)
        directory.add_channel(guild_id=GUILD_ID, id=GENERAL_ID, name="general", refused=False)
        for user_id in (ALICE_ID, BOB_ID):
            directory.add_member(guild_id=GUILD_ID, user_id=user_id, roles=[], nick=None)
        self.gateway = Gateway(
            journal=self.state.journal,
            directory=directory,
            token=token,
            heartbeat_ms=heartbeat_interval_ms,
            compress=compress,
        )
        self._urls: dict[str, str] = {}
        app = web.Application(middlewares=[discord_middleware])
        app[STATE], app[GATEWAY], app[URLS] = self.state, self.gateway, self._urls
        add_directory_routes(app.router)
        add_message_routes(app.router)
        add_thread_routes(app.router)
        add_interaction_routes(app.router)
        add_scheduled_event_routes(app.router)
        add_direct_routes(app.router)
        # Two paths to one handler: tests can tell a fresh connect from a resume by path.
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_get("/gateway-resume", self.gateway.handle)
        self._server = LoopServer(app=app, before_stop=self.gateway.close_all, name="fakediscord")
        # What people do whether or not the bot is connected (reactions, thread messages).
        self.people = People(state=self.state, gateway=self.gateway, server=self._server)
        self._started = self._stopped = False

    # -- lifecycle -------------------------------------------------------------------------

    def start(self) -> FakeDiscord:
        """Start serving (idempotent)."""
        if not self._started:
            self._started = True
            self._server.start()
            base = f"127.0.0.1:{self._server.port}"
            self._urls.update(gateway=f"ws://{base}/gateway")
            self.gateway.resume_url = f"ws://{base}/gateway-resume"
        return self

    def stop(self) -> None:
        """Close gateway connections (1001), stop serving, join the thread (idempotent)."""
        if self._started and not self._stopped:
            self._stopped = True
            self._server.stop()

    def __enter__(self) -> FakeDiscord:
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
        return f"http://127.0.0.1:{self._server.port}"

    @property
    def api_url(self) -> str:
        """The REST base, for discord.http.Route.BASE: http://127.0.0.1:PORT/api/v10"""
        return f"{self.http_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        """The gateway, for DiscordWebSocket.DEFAULT_GATEWAY: ws://127.0.0.1:PORT/gateway"""
        return self._urls["gateway"]

    @property
    def resume_gateway_url(self) -> str:
        """READY's resume_gateway_url: where discord.py reconnects to RESUME."""
        return self.gateway.resume_url

    # -- setup (before the client connects: GUILD_CREATE is sent at IDENTIFY) --------------

    def add_member(
        self, username: str, *, global_name: str | None = None, bot: bool = False
    ) -> str:
        """A new user who is a member of the guild -> their id."""
        user_id = self.state.ids.next()
        self.state.directory.add_user(
            id=user_id, username=username, global_name=global_name, bot=bot
        )
        self.state.directory.add_member(
            guild_id=self.guild_id, user_id=user_id, roles=[], nick=None
        )
        return user_id

    def add_user(self, username: str, *, global_name: str | None = None) -> str:
        """A user Discord knows (GET /users/{id}) who is in no guild of ours -> their id."""
        user_id = self.state.ids.next()
        self.state.directory.add_user(
            id=user_id, username=username, global_name=global_name, bot=False
        )
        return user_id

    def add_channel(self, name: str, *, refused: bool = False, private: bool = False) -> str:
        """A text channel; refused=True: hidden from the bot, REST answers 403 Missing Access;
        private=True: hidden from @everyone, seen by the bot."""
        channel_id = self.state.ids.next()
        self.state.directory.add_channel(
            guild_id=self.guild_id, id=channel_id, name=name, refused=refused, private=private
        )
        return channel_id

    def add_thread(
        self,
        parent_id: str | None = None,
        name: str = "thread",
        *,
        private: bool = False,
        bot_joined: bool = True,
    ) -> str:
        """An existing active thread (in GUILD_CREATE) -> its id."""
        members = [self.default_user_id] + ([self.bot_id] if bot_joined else [])
        thread = self.state.directory.add_thread(
            parent_id=parent_id or self.channel_id,
            id=self.state.ids.next(),
            name=name,
            owner_id=self.default_user_id,
            private=private,
            joined=members,
        )
        return str(thread["id"])

    # -- inspection ------------------------------------------------------------------------

    def requests(self, method: str | None = None, path: str | None = None) -> list[RecordedRequest]:
        """Every REST request, or those matching a method and a path ("/channels/{id}/messages")."""
        return self.state.journal.requests(method=method, path=path)

    def messages(self, channel_id: str | None = None) -> list[JsonDict]:
        """A channel's (or thread's) stored messages, oldest first."""
        return self.state.store.all(channel_id=channel_id or self.channel_id)

    def message(self, message_id: str) -> JsonDict:
        """One message by id, in any channel, or an ephemeral interaction answer."""
        with self.state.lock:
            ephemeral = self.state.interactions.ephemerals.get(message_id)
            if ephemeral is not None:
                return dict(ephemeral)
        return self.state.store.get(channel_id=None, message_id=message_id)

    def channel(self, channel_id: str) -> JsonDict:
        """A channel or thread as GET /channels/{id} would answer."""
        return self.state.directory.channel_view(channel_id=channel_id)

    def interaction(self, interaction_id: str) -> InteractionRecord:
        """An interaction's record: callbacks (type, data), original_id, followup_ids."""
        return self.state.interactions.get(interaction_id=interaction_id)

    def interaction_ids(self) -> list[str]:
        """The id of every interaction dispatched (slash, click), in order."""
        return [r.id for r in self.state.interactions.all()]

    def commands(self, guild_id: str | None = None) -> list[JsonDict]:
        """The registered application commands (global, or of a guild)."""
        return self.state.directory.commands(guild_id=guild_id)

    def gateway_frames(self, op: int | None = None) -> list[JsonDict]:
        """Every frame clients sent on the gateway (IDENTIFY, heartbeats, RESUME...)."""
        with self.state.lock:
            return [dict(f) for f in self.gateway.received if op is None or f.get("op") == op]

    def connections(self) -> list[dict[str, Any]]:
        """Each gateway connection opened: its path and query (v, encoding, compress)."""
        with self.state.lock:
            return [dict(c) for c in self.gateway.opened]

    @property
    def session_id(self) -> str | None:
        """The session id the newest READY gave (what a RESUME must name)."""
        return None if self.gateway.current is None else self.gateway.current.id

    @property
    def counts(self) -> dict[str, int]:
        """identifies, resumes, replayed (events resent on RESUME) and heartbeats so far."""
        gw = self.gateway
        with self.state.lock:
            return {
                "identifies": gw.identifies,
                "resumes": gw.resumes,
                "replayed": gw.replayed,
                "heartbeats": gw.heartbeats,
            }

    # -- faults ----------------------------------------------------------------------------

    def fail_next(
        self,
        method: str,
        path: str,
        *,
        status: int = 429,
        retry_after: float = 0.05,
        times: int = 1,
        is_global: bool = False,
        code: int | None = None,
        message: str | None = None,
    ) -> None:
        """Answer the next `times` matching requests with 429 (Discord's body, headers) or 5xx."""
        failure = make_failure(
            method=method,
            path=path,
            status=status,
            retry_after=retry_after,
            times=times,
            is_global=is_global,
            code=code,
            message=message,
        )
        self.state.journal.add_failure(failure=failure)

    def limit_rate(self, method: str, path: str, *, limit: int, per: float) -> None:
        """Enforce `limit` requests per `per` seconds on the matching routes, per channel (a
        429 with retry_after beyond); answers count down X-RateLimit-Remaining meanwhile."""
        self.state.limits.enforce(method=method, path=path, limit=limit, per=per)

    def drop_connection(self, *, code: int = 4000, abrupt: bool = False) -> None:
        """Close the client's gateway socket (code, or abrupt: no close frame, 1006).

        Events dispatched from now on are kept and replayed when the client RESUMEs.
        """
        self._on_loop(self.gateway.drop(code=code, abrupt=abrupt))

    @contextmanager
    def disconnected(self, *, code: int = 4000, abrupt: bool = False) -> Iterator[None]:
        """Drop the connection and hold its RESUME until the block ends: events sent inside
        are certainly missed, then replayed."""
        self._on_loop(self.gateway.hold_resumes())
        try:
            self.drop_connection(code=code, abrupt=abrupt)
            yield
        finally:
            self._on_loop(self.gateway.release_resumes())

    def invalidate_session(self) -> None:
        """Send op 9 INVALID_SESSION (not resumable): discord.py IDENTIFYs, a new session."""
        self._on_loop(self.gateway.send_op(op=INVALID_SESSION, data=False))

    def send_reconnect(self) -> None:
        """Send op 7 RECONNECT: discord.py closes and resumes at resume_gateway_url."""
        self._on_loop(self.gateway.send_op(op=RECONNECT, data=None))
