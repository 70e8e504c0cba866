"""Scenario harness: the real bot wiring (Bolt, slack_sdk, SQLite) against the fake Slack,
over Socket Mode or over signed HTTP requests to a real waitress server."""

from __future__ import annotations

import socket
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from datetime import UTC, datetime, time
from typing import Any

import pytest

from bot.config.settings import Settings
from bot.db.database import Database
from bot.domain import ChannelKey
from bot.services import posting
from bot.slack import ids
from tests.fakeslack import (
    FakeSlack,
    block_actions_payload,
    command_body,
    event_body,
    event_envelope_payload,
    interactive_body,
    signed_request,
    slash_command_payload,
    socket_mode_app,
)
from tests.services.conftest import load_sample
from tests.wired import SlackBot, build_slack_bot, http_service

SECRET = "test-signing-secret"
CHANNEL = "C0001"
KEY = ChannelKey(platform="slack", workspace="T0001", channel=CHANNEL)
ADMIN = "U0ADMIN"
MEMBER = "U0001"
# Monday 5 Jan 2026, 09:00 in Berlin.
MONDAY_9 = datetime(2026, 1, 5, 8, 0, tzinfo=UTC)


def shown_mrkdwn(payload: dict[str, Any]) -> str:
    """The mrkdwn a person reads in a message: its blocks' texts (the fallback text without),
    zero-width fences taken out so tests can read the words."""
    texts: list[str] = []
    for block in payload.get("blocks") or []:
        if block.get("type") in ("section", "header"):
            texts.append(block["text"]["text"])
        elif block.get("type") == "context":
            texts.extend(e.get("text", "") for e in block["elements"])
    return ("\n".join(texts) if texts else str(payload.get("text", ""))).replace("\u200b", "")


class FakeClock:
    """A clock the test moves by hand."""

    def __init__(self, at: datetime) -> None:
        """Start at `at`."""
        self.at = at

    def now(self) -> datetime:
        """The instant the test set."""
        return self.at


@pytest.fixture
def fake() -> Iterator[FakeSlack]:
    """A running fake workspace: #general with the bot in it, an admin and a member."""
    # Message timestamps start the day before the tests' Monday, as a real history would.
    with FakeSlack(ts_base=int(MONDAY_9.timestamp()) - 86_400) as slack:
        slack.add_channel(CHANNEL, "general")
        slack.add_user(ADMIN, "ana", is_admin=True)
        slack.add_user(MEMBER, "bo")
        yield slack


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def closed_lookups() -> dict[str, Any]:
    """Settings whose metadata look-ups fail fast on closed local ports: no test touches the
    internet."""
    return {
        "arxiv_api_url": f"http://127.0.0.1:{free_port()}/api/query",
        "crossref_api_url": f"http://127.0.0.1:{free_port()}",
        "lookup_timeout": 1,
    }


@pytest.fixture
def settings(fake: FakeSlack, sqlite_url: str) -> Settings:
    """Settings as the environment would give them, pointed at the fake."""
    return Settings(
        slack_bot_token=fake.bot_token,
        slack_app_token=fake.app_token,
        slack_signing_secret=SECRET,
        slack_api_url=fake.base_url,
        database_url=sqlite_url,
        channel=CHANNEL,
        post_time=time(9, 0),
        timezone="Europe/Berlin",
        days=frozenset(range(1, 6)),
        http_port=0,
        # No test touches the internet: metadata look-ups fail fast on a closed local port.
        arxiv_api_url=f"http://127.0.0.1:{free_port()}/api/query",
        crossref_api_url=f"http://127.0.0.1:{free_port()}",
        lookup_timeout=1,
    )


@dataclass
class Harness:
    """A running bot in one mode, and how to talk to it as Slack would."""

    bot: SlackBot
    fake: FakeSlack
    clock: FakeClock
    mode: str
    settings: Settings

    def sweep(self) -> dict[ChannelKey, posting.PostResult]:
        """What the scheduler does every minute, at the test's time."""
        return posting.post_due(poster=self.bot.poster, now=self.clock.now())

    def command(self, text: str, *, user: str = ADMIN, **fields: str) -> str:
        """Send /paperclub TEXT the way this mode does; return the text of the reply."""
        url = self.fake.new_response_url()
        payload = slash_command_payload(text=text, user_id=user, response_url=url, **fields)
        if self.mode == "socket":
            envelope = self.fake.push("slash_commands", dict(payload))
            self.fake.wait_ack(envelope)
        else:
            status, _ = self.post(command_body(payload))
            assert status == 200
        return shown_mrkdwn(self.fake.wait_response(url, timeout=10))

    def event(self, event: dict[str, Any], *, event_id: str | None = None, retry: int = 0) -> str:
        """Deliver one event as this mode does (retry > 0: a redelivery); its event id."""
        payload = event_envelope_payload(event, event_id=event_id)
        if self.mode == "socket":
            envelope = self.fake.push(
                "events_api", payload, retry_attempt=retry, retry_reason="timeout" if retry else ""
            )
            self.fake.wait_ack(envelope)
        else:
            body = event_body(
                payload, retry_num=retry or None, retry_reason="http_timeout" if retry else None
            )
            status, _ = self.post(body)
            assert status == 200
        return str(payload["event_id"])

    def click(self, action_id: str, *, user: str, message_ts: str, value: str) -> None:
        """Click a button on a message, as this mode delivers it."""
        payload = block_actions_payload(
            action_id, value, user_id=user, message_ts=message_ts, channel_id=CHANNEL
        )
        if self.mode == "socket":
            self.fake.wait_ack(self.fake.push("interactive", payload))
        else:
            status, _ = self.post(interactive_body(payload))
            assert status == 200

    def post(self, body: Any, **kwargs: Any) -> tuple[int, bytes]:
        """A signed request to the HTTP endpoint."""
        url = f"http://127.0.0.1:{self.settings.http_port}/slack/events"
        return signed_request(url, body, kwargs.pop("secret", SECRET), **kwargs)

    def more_results(self, *, value: str, user: str = MEMBER) -> dict[str, Any]:
        """Click a search page's 'More results' button as this mode delivers it; the answer."""
        url = self.fake.new_response_url()
        payload = block_actions_payload(
            ids.SEARCH_MORE, value, user_id=user, message_ts="1.0", response_url=url
        )
        if self.mode == "socket":
            self.fake.wait_ack(self.fake.push("interactive", payload))
        else:
            assert self.post(interactive_body(payload))[0] == 200
        return self.fake.wait_response(url, timeout=10)

    def daily_post(self) -> tuple[str, str]:
        """Post today's paper; its ts and the value its vote buttons carry."""
        self.sweep()
        [message] = self.posts()
        actions = next(b for b in message["blocks"] if b["type"] == "actions")
        return str(message["ts"]), str(actions["elements"][0]["value"])

    def posts(self) -> list[dict[str, Any]]:
        """Daily posts in the channel (messages carrying our metadata)."""
        return [m for m in self.fake.messages(CHANNEL) if m.get("metadata")]


@pytest.fixture(params=["socket", "http"])
def harness(
    request: pytest.FixtureRequest, fake: FakeSlack, settings: Settings, sqlite_url: str
) -> Iterator[Harness]:
    """The bot running in Socket Mode or HTTP mode, with the sample list imported."""
    yield from _running(mode=request.param, fake=fake, settings=settings, url=sqlite_url)


def _running(
    *,
    mode: str,
    fake: FakeSlack,
    settings: Settings,
    url: str,
    load: Callable[[Database], object] = load_sample,
) -> Iterator[Harness]:
    """Build and serve a bot until the test ends, with `load`'s papers (the sample list)."""
    database = Database(url=url)
    load(database)
    clock = FakeClock(MONDAY_9)
    bot = build_slack_bot(settings=settings, database=database, clock=clock, mode=mode)
    harness = Harness(bot=bot, fake=fake, clock=clock, mode=mode, settings=settings)
    try:
        if mode == "socket":
            with socket_mode_app(bot.app, fake):
                yield harness
        else:
            # Port 0: the server binds a free port itself, so no other process can take it.
            service = http_service(bot=bot, settings=settings)
            service.start()
            harness.settings = replace(settings, http_port=service.port)
            try:
                yield harness
            finally:
                service.stop()
    finally:
        bot.close()
        database.dispose()


@pytest.fixture
def make_bot(
    fake: FakeSlack, settings: Settings, sqlite_url: str
) -> Iterator[Callable[..., SlackBot]]:
    """More bots on the same database (a restart, a second replica), without a transport."""
    databases: list[Database] = []
    bots: list[SlackBot] = []

    def build(**changes: Any) -> SlackBot:
        database = Database(url=sqlite_url)
        databases.append(database)
        clock = changes.pop("clock", FakeClock(MONDAY_9))
        bot = build_slack_bot(
            settings=replace(settings, **changes), database=database, clock=clock, mode="socket"
        )
        bots.append(bot)
        return bot

    yield build
    for bot in bots:
        bot.close()
    for database in databases:
        database.dispose()


@pytest.fixture
def http_harness(fake: FakeSlack, settings: Settings, sqlite_url: str) -> Iterator[Harness]:
    """The bot in HTTP mode only."""
    yield from _running(mode="http", fake=fake, settings=settings, url=sqlite_url)
