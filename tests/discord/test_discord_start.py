"""Starting on Discord: a refused token, an unreachable API or an unusable DISCORD_CHANNEL stop
the start with what to do; an intent not switched on stops the bot with the portal's switch
named."""

from __future__ import annotations

import logging
import threading
from dataclasses import replace

import pytest

from bot.config.settings import Settings
from bot.db.database import Database
from bot.discord.plugin import DiscordPlatform
from bot.ports import PlatformStartError
from bot.runtime.wiring import Wiring
from tests.discord.conftest import MONDAY_9, WAIT, QuickPlugin
from tests.fakediscord import FakeDiscord
from tests.slack.conftest import FakeClock, free_port


def _wiring(settings: Settings, database: Database) -> Wiring:
    """The wiring with the Discord plug-in, as `paperclub run` builds it."""
    return Wiring(
        settings=settings, database=database, clock=FakeClock(MONDAY_9), plugins=[QuickPlugin()]
    )


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"discord_token": "not-the-token"}, "Discord refused the bot token"),
        ({"discord_api_url": f"http://127.0.0.1:{free_port()}/api/v10"}, "could not be reached"),
        ({"discord_channel": "1100000000000009999"}, "DISCORD_CHANNEL 1100000000000009999"),
    ],
)
def test_a_start_that_cannot_work_says_why(
    fake: FakeDiscord, settings: Settings, database: Database, change: dict[str, str], said: str
) -> None:
    with pytest.raises(PlatformStartError, match=said):
        _wiring(replace(settings, **change), database)  # type: ignore[arg-type]


def test_the_message_content_intent_switched_off_stops_with_the_switch_named(
    fake: FakeDiscord, settings: Settings, database: Database, caplog: pytest.LogCaptureFixture
) -> None:
    fake.gateway.privileged_allowed = 0
    wiring = _wiring(settings, database)
    platform = wiring.platforms["discord"]
    assert isinstance(platform, DiscordPlatform)
    stop = threading.Event()
    try:
        with caplog.at_level(logging.ERROR, logger="paperclub"):
            server = threading.Thread(target=platform.serve, kwargs={"stop": stop})
            server.start()
            assert stop.wait(WAIT), "the bot kept running without its intent"
            server.join(WAIT)
    finally:
        wiring.close()
    assert "Message Content intent" in caplog.text
