"""Shared pieces of the Discord fault tests: the real Discord plug-in wired on a FakeClock
against FakeDiscord (through a lossy HTTP hop when a test needs answers lost after the effect),
a log trap, and waits on what the fake dispatched and the bot finished."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import time as clock_time
from pathlib import Path
from typing import Any

from aiohttp import ClientSession, web

import bot.discord  # noqa: F401  (first: discord.py's audioop warning)
from bot.config.settings import Settings
from bot.db.database import Database
from bot.db.migrate import upgrade_url
from bot.domain import ChannelKey
from tests.discord.conftest import DiscordHarness, running
from tests.fakediscord import FakeDiscord
from tests.fakediscord.model import path_pattern
from tests.fakediscord.server import LoopServer
from tests.faults.support import BERLIN_WEEKDAYS, free_port
from tests.services.conftest import load_sample

WAIT = 20.0
API = "/api/v10"
# Gateway events our client counts in `client.handled` once its listener is done.
HANDLED_EVENTS = frozenset(
    {
        "MESSAGE_CREATE",
        "MESSAGE_UPDATE",
        "MESSAGE_DELETE",
        "MESSAGE_DELETE_BULK",
        "MESSAGE_REACTION_ADD",
        "MESSAGE_REACTION_REMOVE",
    }
)
# Requests by which the bot says something: each must carry allowed_mentions parse [].
SAYING = (
    ("POST", "/channels/{id}/messages"),
    ("PATCH", "/channels/{id}/messages/{id}"),
    ("POST", "/webhooks/{id}/{token}"),
    ("PATCH", "/webhooks/{id}/{token}/messages/{id}"),
)
CHANNEL_MESSAGE, UPDATE_MESSAGE = 4, 7


# -- losing Discord's answer after the effect -------------------------------------------------


@dataclass
class Loss:
    """One queued fault: which requests, and what the client hears instead of the answer."""

    method: str
    path: str
    status: int | None  # None: the connection is cut (the client sees a disconnect)
    before: bool  # True: cut before the request reaches the fake (no effect)
    times: int = 1


@dataclass
class LossyProxy:
    """A loopback HTTP hop in front of the fake's REST API. FakeDiscord.fail_next answers
    before the effect; this hop can let the request reach the fake (the message is created)
    and then give the client a 5xx or a cut connection instead of the answer: an outcome the
    bot cannot know."""

    upstream: str
    losses: list[Loss] = field(default_factory=list)
    applied: list[str] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _session: ClientSession | None = None
    _server: LoopServer | None = None

    def __enter__(self) -> LossyProxy:
        """Serve on a loopback port."""
        app = web.Application()
        app.router.add_route("*", "/{tail:.*}", self._forward)
        self._server = LoopServer(app=app, before_stop=self._close_session, name="lossy-proxy")
        self._server.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        """Stop serving."""
        if self._server is not None:
            self._server.stop()

    @property
    def api_url(self) -> str:
        """The REST base to point discord.py at."""
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.port}{API}"

    def lose_next(
        self, method: str, path: str, *, status: int | None, before: bool = False, times: int = 1
    ) -> None:
        """The next `times` matching requests (path as in FakeDiscord.requests) get `status`
        (or a cut connection) after reaching the fake, or a cut before it when `before`."""
        with self._lock:
            self.losses.append(Loss(method.upper(), path, status, before, times))

    def _take(self, *, method: str, path: str) -> Loss | None:
        """Use up one loss matching this request, if one is queued."""
        with self._lock:
            for loss in self.losses:
                if loss.method == method and path_pattern(template=loss.path).match(path):
                    loss.times -= 1
                    if loss.times <= 0:
                        self.losses.remove(loss)
                    label = f"{method} {path}: {loss.status or 'cut'}"
                    self.applied.append(label + (" before" if loss.before else " after"))
                    return loss
        return None

    async def _close_session(self) -> None:
        """Close the upstream session (on stop, on the hop's loop)."""
        if self._session is not None:
            await self._session.close()

    async def _forward(self, request: web.Request) -> web.StreamResponse:
        """Pass the request on, unless a loss says otherwise."""
        loss = self._take(method=request.method, path=request.path.removeprefix(API))
        if loss is not None and loss.before and loss.status is None:
            return self._cut(request)
        if self._session is None:
            self._session = ClientSession(auto_decompress=False)
        headers = {k: v for k, v in request.headers.items() if k.lower() not in _HOP}
        async with self._session.request(
            request.method,
            self.upstream + request.path_qs,
            data=await request.read(),
            headers=headers,
            allow_redirects=False,
        ) as upstream:
            body = await upstream.read()
            answer_headers = {k: v for k, v in upstream.headers.items() if k.lower() not in _HOP}
            status = upstream.status
        if loss is None:
            return web.Response(body=body, status=status, headers=answer_headers)
        if loss.status is None:
            return self._cut(request)
        text = f'{{"message": "{loss.status}: Server Error", "code": 0}}'
        return web.Response(
            body=text.encode(),
            status=loss.status,
            headers={"Content-Type": "application/json", "Via": "1.1 google"},
        )

    @staticmethod
    def _cut(request: web.Request) -> web.StreamResponse:
        """Abort the client's TCP connection: no answer at all."""
        if request.transport is not None:
            request.transport.abort()
        raise asyncio.CancelledError  # aiohttp ends the handler quietly on a lost client


_HOP = frozenset({"host", "content-length", "transfer-encoding", "connection", "keep-alive"})


# -- the log ----------------------------------------------------------------------------------


class Trap(logging.Handler):
    """Keeps every WARNING-or-worse record and every record carrying a traceback."""

    def __init__(self) -> None:
        """Empty."""
        super().__init__(level=logging.DEBUG)
        self.records: list[logging.LogRecord] = []
        self._guard = threading.Lock()

    def emit(self, record: logging.LogRecord) -> None:
        """Keep the ones worth reading."""
        if record.levelno >= logging.WARNING or record.exc_info:
            with self._guard:
                self.records.append(record)

    def clear(self) -> None:
        """Forget what was kept (each fuzz example starts clean)."""
        with self._guard:
            self.records.clear()

    def messages(self, *, level: int = logging.WARNING) -> list[str]:
        """The messages at `level` or above."""
        with self._guard:
            return [r.getMessage() for r in self.records if r.levelno >= level]

    def tracebacks(self) -> list[str]:
        """The records that carry an exception, formatted."""
        with self._guard:
            found = [r for r in self.records if r.exc_info]
        formatter = logging.Formatter()
        return [
            f"{r.name}: {r.getMessage()}\n{formatter.formatException(r.exc_info)}"
            for r in found
            if r.exc_info
        ]


@contextlib.contextmanager
def trapped() -> Iterator[Trap]:
    """A Trap on the root logger for the block."""
    trap = Trap()
    root = logging.getLogger()
    root.addHandler(trap)
    try:
        yield trap
    finally:
        root.removeHandler(trap)


# -- the bot -----------------------------------------------------------------------------------


def discord_key(fake: FakeDiscord, channel_id: str) -> ChannelKey:
    """A channel's key in the archive."""
    return ChannelKey(platform="discord", workspace=fake.guild_id, channel=channel_id)


def discord_settings(fake: FakeDiscord, *, url: str, api_url: str | None = None) -> Settings:
    """Settings pointed at the fake (REST through `api_url` when given), lookups local."""
    return Settings(
        discord_token=fake.token,
        discord_api_url=api_url or fake.api_url,
        discord_gateway_url=fake.gateway_url,
        discord_channel=fake.channel_id,
        database_url=url,
        post_time=clock_time(9, 0),
        timezone="Europe/Berlin",
        days=frozenset(range(1, 6)),
        arxiv_api_url=f"http://127.0.0.1:{free_port()}/api/query",
        crossref_api_url=f"http://127.0.0.1:{free_port()}",
        lookup_timeout=1,
    )


@contextlib.contextmanager
def discord_bot(
    fake: FakeDiscord, *, db: Path, follow: Sequence[str] = (), api_url: str | None = None
) -> Iterator[DiscordHarness]:
    """The sample list imported, #general and `follow` following it, the bot connected; the
    Chat's pause between post attempts skipped (the clock is a FakeClock anyway)."""
    url = f"sqlite:///{db}"
    upgrade_url(url=url)
    database = Database(url=url)
    try:
        load_sample(database)
        with database() as store:
            for channel_id in follow:
                key = discord_key(fake, channel_id)
                store.save_channel(key=key, schedule=BERLIN_WEEKDAYS, private=False)
        settings = discord_settings(fake, url=url, api_url=api_url)
        for harness in running(fake=fake, settings=settings, database=database):
            harness.platform.chat.sleep = lambda _seconds: None
            yield harness
    finally:
        database.dispose()


def post_ids(harness: DiscordHarness) -> dict[str, int]:
    """message id -> post id of every delivered post."""
    with harness.database(write=False) as store:
        found = {}
        for channel in store.channels():
            for message in harness.posts(channel.key.channel):
                post = store.post_by_message(channel=channel.key, message_id=message["id"])
                if post is not None:
                    found[message["id"]] = post.id
    return found


# -- waiting -----------------------------------------------------------------------------------


def _counted(*, frame: dict[str, Any], bot_id: str) -> bool:
    """Whether the client counts this event once handled: every message, deletion and
    reaction event, and the edits of messages but the bot's own (a redraw's echo)."""
    if frame["t"] == "MESSAGE_UPDATE":
        return str((frame["d"].get("author") or {}).get("id")) != bot_id
    return frame["t"] in HANDLED_EVENTS


def dispatched(fake: FakeDiscord) -> int:
    """How many events the bot's listeners must finish: every dispatch of a counted kind."""
    with fake.state.lock:
        return sum(
            1
            for session in fake.gateway.sessions.values()
            for frame in session.sent
            if _counted(frame=frame, bot_id=fake.bot_id)
        )


# discord.py runs each interaction in a task of its own, named after what it dispatches to.
INTERACTION_TASKS = ("discord-ui-dynamic-item-", "discord-ui-view-dispatch-", "CommandTree-")


async def _interaction_tasks_done() -> None:
    """Await every interaction task on this loop (button callbacks, app commands)."""
    current = asyncio.current_task()
    while pending := [
        t
        for t in asyncio.all_tasks()
        if t is not current and not t.done() and t.get_name().startswith(INTERACTION_TASKS)
    ]:
        await asyncio.wait(pending, timeout=WAIT)


def interactions_done(harness: DiscordHarness) -> None:
    """Block until the bot has finished every interaction it has received so far (whatever
    it answered, and whatever it logged)."""
    harness.platform.bridge.call(_interaction_tasks_done(), timeout=WAIT * 2)


def settle(harness: DiscordHarness, *, interactions: Sequence[str] = ()) -> None:
    """Wait until the bot answered `interactions`, finished every interaction and event the
    fake dispatched, and sent its last redraws (which dispatch more events: until nothing
    moves)."""
    fake, handled, coalescer = (
        harness.fake,
        harness.platform.client.handled,
        harness.wiring.coalescer,
    )
    for interaction_id in interactions:
        fake.wait_callback(interaction_id, timeout=WAIT)
    for _ in range(50):
        interactions_done(harness)
        assert coalescer.drain(timeout=WAIT), "redraws still pending"
        target = dispatched(fake)
        assert handled.wait(count=target, timeout=WAIT), (
            f"the bot finished {handled.count} of {target} events"
        )
        # Idle, every event done, and still idle (no listener queued a redraw meanwhile).
        if (
            coalescer.drain(timeout=0)
            and handled.count == dispatched(fake) == target
            and (coalescer.drain(timeout=0))
        ):
            return
    raise AssertionError(f"never settled: {handled.count} events handled, {dispatched(fake)} sent")


def redeliver(fake: FakeDiscord, frame: dict[str, Any]) -> int:
    """Dispatch an already sent event again, unchanged (a new sequence number), as a gateway
    that delivers at least once may; its new sequence number."""
    seq = fake._on_loop(
        fake.gateway.dispatch(event=frame["t"], data=frame["d"], require_client=True)
    )
    return int(seq or 0)


def last_frame(
    fake: FakeDiscord, event: str, about: Callable[[dict[str, Any]], bool]
) -> dict[str, Any]:
    """The newest dispatched frame of a kind whose data is `about` what the test did."""
    session = fake.gateway.current
    assert session is not None
    with fake.state.lock:
        return next(f for f in reversed(session.sent) if f["t"] == event and about(f["d"]))


def pings(fake: FakeDiscord) -> list[str]:
    """Every message the bot sent, edited or answered with that could notify anyone: what it
    sent without allowed_mentions parse []."""
    bad = []
    for method, path in SAYING:
        for request in fake.requests(method, path):
            body = request.json if isinstance(request.json, dict) else {}
            if str(body.get("nonce") or "").startswith("fuzz"):
                continue  # the test's own message holding buttons to click
            if (body.get("allowed_mentions") or {}).get("parse") != []:
                bad.append(f"{method} {request.path}: {body.get('allowed_mentions')!r}")
    for request in fake.requests("POST", "/interactions/{id}/{token}/callback"):
        body = request.json if isinstance(request.json, dict) else {}
        if body.get("type") in (CHANNEL_MESSAGE, UPDATE_MESSAGE):
            mentions = (body.get("data") or {}).get("allowed_mentions") or {}
            if mentions.get("parse") != []:
                bad.append(f"callback {body.get('type')}: {mentions!r}")
    return bad
