"""Scenario harness for Discord: the real wiring with the Discord plug-in (discord.py, its
gateway and REST calls, SQLite) against the fake Discord."""

from __future__ import annotations

import gc
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from datetime import time as clock_time
from typing import Any

import pytest

import bot.discord  # noqa: F401  (first: discord.py's audioop warning)
from bot.config.settings import Settings
from bot.db.database import Database
from bot.discord import endpoints, plugin
from bot.discord.plugin import DiscordPlatform
from bot.domain import ChannelKey
from bot.ports import Platform
from bot.runtime.wiring import Wiring
from bot.services import posting
from bot.services.club import Club
from tests.fakediscord import FakeDiscord
from tests.services.conftest import load_sample
from tests.slack.conftest import FakeClock, free_port

# Monday 5 Jan 2026, 09:00 in Berlin.
MONDAY_9 = datetime(2026, 1, 5, 8, 0, tzinfo=UTC)
WAIT = 10.0


class QuickPlugin:
    """The Discord plug-in as `paperclub run` registers it, but ready 50 ms after the fake's
    GUILD_CREATE instead of discord.py's default 2 s (it waits that long for more guilds)."""

    NAME = plugin.NAME

    def configured(self, *, settings: Settings) -> bool:
        """As the plug-in says."""
        return plugin.configured(settings=settings)

    def missing(self, *, settings: Settings, mode: str) -> list[str]:
        """As the plug-in says."""
        return plugin.missing(settings=settings, mode=mode)

    def build(self, *, settings: Settings, club: Club, mode: str) -> Platform:
        """The plug-in's own build, with the short ready wait."""
        return plugin.build_platform(settings=settings, club=club, guild_ready_timeout=0.05)


@pytest.fixture(autouse=True)
def no_thread_leaks() -> Iterator[None]:
    """Every thread a test starts (the loop, its workers, the fake's server) must end."""
    before = set(threading.enumerate())
    urls = endpoints.current()
    yield
    deadline = time.monotonic() + 5
    for thread in [t for t in threading.enumerate() if t not in before]:
        thread.join(max(0.0, deadline - time.monotonic()))
    extra = [t for t in threading.enumerate() if t not in before and t.is_alive()]
    gc.collect()  # a ResourceWarning (unclosed socket) is blamed on this test
    endpoints.point_at(api_url=urls[0], gateway_url=urls[1])
    assert not extra, f"threads left running: {extra}"


@pytest.fixture
def fake() -> Iterator[FakeDiscord]:
    """A running fake Discord: one guild, #general, alice (a member) and bob (the owner)."""
    with FakeDiscord() as discord_fake:
        yield discord_fake


@pytest.fixture
def settings(fake: FakeDiscord, sqlite_url: str) -> Settings:
    """Settings as the environment would give them, pointed at the fake."""
    return Settings(
        discord_token=fake.token,
        discord_api_url=fake.api_url,
        discord_gateway_url=fake.gateway_url,
        discord_channel=fake.channel_id,
        database_url=sqlite_url,
        post_time=clock_time(9, 0),
        timezone="Europe/Berlin",
        days=frozenset(range(1, 6)),
        arxiv_api_url=f"http://127.0.0.1:{free_port()}/api/query",
        crossref_api_url=f"http://127.0.0.1:{free_port()}",
        lookup_timeout=1,
    )


@dataclass
class DiscordHarness:
    """A connected bot on the fake, and how a test talks to it."""

    wiring: Wiring
    platform: DiscordPlatform
    fake: FakeDiscord
    clock: FakeClock
    database: Database

    @property
    def key(self) -> ChannelKey:
        """#general's key."""
        return ChannelKey(
            platform="discord", workspace=self.fake.guild_id, channel=self.fake.channel_id
        )

    def sweep(self) -> dict[ChannelKey, posting.PostResult]:
        """What the scheduler does every minute, at the test's time."""
        return posting.post_due(poster=self.wiring.posters["discord"], now=self.clock.now())

    def posts(self, channel_id: str | None = None) -> list[dict[str, Any]]:
        """Our daily posts in a channel (messages with embeds by the bot)."""
        return [
            m
            for m in self.fake.messages(channel_id or self.fake.channel_id)
            if m["author"]["id"] == self.fake.bot_id and m.get("embeds")
        ]

    def daily_post(self) -> dict[str, Any]:
        """Post today's paper; the message."""
        self.sweep()
        [message] = self.posts()
        return message

    def events(self, action: Any, *, count: int = 1) -> None:
        """Do something in the fake, then wait until our listeners finished `count` events."""
        handled = self.platform.client.handled
        target = handled.count + count
        action()
        assert handled.wait(count=target, timeout=WAIT), "the bot did not handle the event"

    def command(
        self,
        subcommand: str,
        options: dict[str, Any] | None = None,
        *,
        user: str | None = None,
        channel: str | None = None,
    ) -> dict[str, Any]:
        """Run /paperclub SUBCOMMAND as a member; the answer (its message) once it came."""
        record = self.fake.slash("paperclub", subcommand, options, user=user, channel=channel)
        return self.answer(record.id)

    def answer(self, interaction_id: str) -> dict[str, Any]:
        """The message that answered an interaction, once the bot followed up or edited it."""
        fake = self.fake
        record = fake.interaction(interaction_id)
        if record.message_id is not None:  # a click: its answer edits the clicked message
            fake.wait_request(
                "PATCH", f"/webhooks/{fake.app_id}/{record.token}/messages/@original", timeout=WAIT
            )
            return fake.message(record.message_id)

        def answered() -> bool:
            live = fake.state.interactions.lookup(interaction_id=interaction_id)
            return bool(live.followup_ids) or (
                bool(live.callbacks) and not live.loading and live.original_id is not None
            )

        fake.wait_until(answered, timeout=WAIT)
        live = fake.interaction(interaction_id)
        return fake.message((live.followup_ids or [live.original_id])[-1] or "")

    def redrawn(self) -> None:
        """Wait until the coalesced redraws went out."""
        assert self.wiring.coalescer.drain(timeout=WAIT)


def running(
    *, fake: FakeDiscord, settings: Settings, database: Database
) -> Iterator[DiscordHarness]:
    """Build the wiring with the Discord plug-in, connect, yield, close; discord.py's URLs,
    which the plug-in moves to the fake's, are put back (a test outside tests/discord has no
    no_thread_leaks to do it, and the next test in its process would reach the fake)."""
    clock = FakeClock(MONDAY_9)
    urls = endpoints.current()
    wiring = Wiring(settings=settings, database=database, clock=clock, plugins=[QuickPlugin()])
    platform = wiring.platforms["discord"]
    assert isinstance(platform, DiscordPlatform)
    try:
        platform.connect()
        assert platform.client.ready.wait(WAIT), "the bot never got ready"
        yield DiscordHarness(
            wiring=wiring, platform=platform, fake=fake, clock=clock, database=database
        )
    finally:
        wiring.close()
        endpoints.point_at(api_url=urls[0], gateway_url=urls[1])


@pytest.fixture
def harness(fake: FakeDiscord, settings: Settings, sqlite_url: str) -> Iterator[DiscordHarness]:
    """The bot connected to the fake, with the sample reading list imported."""
    database = Database(url=sqlite_url)
    load_sample(database)
    try:
        yield from running(fake=fake, settings=settings, database=database)
    finally:
        database.dispose()
