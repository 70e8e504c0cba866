"""Two platforms in one process: Slack (against the fake) and a minimal in-memory platform, on
one wiring, one scheduler and one database, each workspace with its own papers. Each channel
posts once a day; no job of one platform fires for the other."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from types import SimpleNamespace

from bot.config.settings import Settings
from bot.db.database import Database
from bot.domain import ChannelKey
from bot.messages import Message, as_plain
from bot.runtime.wiring import Wiring
from bot.services import posting
from bot.services.club import Club
from bot.slack import plugin as slack_plugin
from tests.fakeslack import FakeSlack
from tests.services.conftest import WEEKDAYS, load_sample
from tests.services.memory_chat import MemoryChat
from tests.slack.conftest import CHANNEL, KEY, MONDAY_9, FakeClock

MEMORY = ChannelKey(platform="memory", workspace="W1", channel=CHANNEL)  # the same channel id


@dataclass
class MemoryPlatform:
    """A platform that keeps what it was asked to post."""

    chat: MemoryChat = field(default_factory=MemoryChat)
    name: str = "memory"

    def render(self, *, message: Message) -> str:
        """Plain text."""
        return as_plain(message=message)

    def serve(self, *, stop: threading.Event) -> None:
        """Nothing to serve: wait for the stop."""
        stop.wait()

    def close(self) -> None:
        """Nothing to let go of."""


def _memory_plugin(platform: MemoryPlatform) -> SimpleNamespace:
    """A plug-in module's interface around one platform object."""

    def build(*, settings: Settings, club: Club, mode: str) -> MemoryPlatform:
        """Follow the memory channel and hand the platform over."""
        club.follow(channel=MEMORY, private=False)
        return platform

    return SimpleNamespace(
        NAME="memory",
        configured=lambda *, settings: True,
        missing=lambda *, settings, mode: [],
        build=build,
    )


def test_each_channel_posts_once_on_its_own_platform(
    fake: FakeSlack, settings: Settings, sqlite_url: str
) -> None:
    database = Database(url=sqlite_url)
    # Each workspace keeps its own papers: the same list is read in both.
    load_sample(database, workspace=KEY.workspace_key)
    load_sample(database, workspace=MEMORY.workspace_key)
    with database() as store:
        store.save_channel(key=KEY, schedule=WEEKDAYS, private=False)
    memory = MemoryPlatform()
    wiring = Wiring(
        settings=settings,
        database=database,
        clock=FakeClock(MONDAY_9),
        plugins=[slack_plugin, _memory_plugin(memory)],
        mode="socket",
    )
    try:
        assert set(wiring.platforms) == {"slack", "memory"}
        first = wiring.sweep()
        assert first[KEY].outcome is posting.Outcome.POSTED
        assert first[MEMORY].outcome is posting.Outcome.POSTED
        again = wiring.sweep()
        assert {again[KEY].outcome, again[MEMORY].outcome} == {posting.Outcome.ALREADY}
        assert len([m for m in fake.messages(CHANNEL) if m.get("metadata")]) == 1
        assert memory.chat.count(CHANNEL) == 1
        wiring.start(paused=True)
        assert set(wiring.scheduler.next_runs()) == {str(KEY), str(MEMORY)}
    finally:
        wiring.close()
    alone = Wiring(
        settings=settings,
        database=database,
        clock=FakeClock(MONDAY_9),
        plugins=[slack_plugin],
        mode="socket",
    )
    try:
        alone.start(paused=True)
        # The memory channel is followed in the archive, but its platform does not run here.
        assert set(alone.scheduler.next_runs()) == {str(KEY)}
        assert set(alone.sweep()) == {KEY}
    finally:
        alone.close()
        database.dispose()
