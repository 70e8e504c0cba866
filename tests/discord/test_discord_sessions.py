"""A new gateway session asks for recent posts to be read back; a resumed one does not:
Discord replays missed events on RESUME only."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import replace

import pytest

from bot.config.settings import Settings
from bot.db.database import Database
from bot.discord import plugin
from bot.discord.plugin import DiscordPlatform
from bot.ports import Platform
from bot.runtime.wiring import Wiring
from bot.services.club import Club
from tests.discord.conftest import MONDAY_9, WAIT, DiscordHarness, QuickPlugin
from tests.fakediscord import FakeDiscord
from tests.services.conftest import load_sample
from tests.slack.conftest import FakeClock


class Asked:
    """A Club's wants_reconcile that notes each ask (a plain value the Club is given)."""

    def __init__(self) -> None:
        self.platforms: list[str] = []
        self._changed = threading.Condition()

    def __call__(self, platform: str) -> None:
        with self._changed:
            self.platforms.append(platform)
            self._changed.notify_all()

    def wait(self, *, count: int) -> bool:
        """Block until `count` asks came; False after WAIT seconds."""
        with self._changed:
            return self._changed.wait_for(lambda: len(self.platforms) >= count, timeout=WAIT)


class AskingPlugin(QuickPlugin):
    """The Discord plug-in on a Club whose wants_reconcile is `asked`."""

    def __init__(self, *, asked: Asked) -> None:
        self.asked = asked

    def build(self, *, settings: Settings, club: Club, mode: str) -> Platform:
        """The plug-in's build, on the Club with the recorder."""
        club = replace(club, wants_reconcile=self.asked)
        return plugin.build_platform(settings=settings, club=club, guild_ready_timeout=0.05)


@pytest.fixture
def asked() -> Asked:
    """Every reconcile ask of the test's bot."""
    return Asked()


@pytest.fixture
def asking(
    fake: FakeDiscord, settings: Settings, sqlite_url: str, asked: Asked
) -> Iterator[DiscordHarness]:
    """The bot connected to the fake, its Club recording reconcile asks."""
    database = Database(url=sqlite_url)
    load_sample(database)
    clock = FakeClock(MONDAY_9)
    wiring = Wiring(
        settings=settings, database=database, clock=clock, plugins=[AskingPlugin(asked=asked)]
    )
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
        database.dispose()


def test_the_first_session_asks_once(asking: DiscordHarness, asked: Asked) -> None:
    assert asked.wait(count=1)
    assert asked.platforms == ["discord"]


def test_a_resume_does_not_ask_and_a_new_session_does(asking: DiscordHarness, asked: Asked) -> None:
    fake = asking.fake
    post = asking.daily_post()["id"]
    assert asked.wait(count=1)
    fake.drop_connection()  # discord.py RESUMEs: what was missed is replayed
    fake.wait_resumed(count=1, timeout=WAIT)
    asking.events(lambda: fake.people.react(post, "👍", user=fake.alice_id))
    assert asked.platforms == ["discord"]
    fake.invalidate_session()  # not resumable: discord.py IDENTIFYs a new session
    assert asked.wait(count=2)
    assert asked.platforms == ["discord", "discord"]
    assert fake.counts["identifies"] == 2 and fake.counts["resumes"] == 1
