"""Slack and Discord in one process, as `paperclub run` with both settings runs them: one
database, one scheduler, one redraw coalescer; the Slack workspace and the Discord guild each
keep their own papers, each channel posts once on its own platform, and both serve until one
stop."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import replace

import pytest

from bot.config.settings import Settings
from bot.db.database import Database
from bot.discord.deps import channel_key
from bot.discord.plugin import DiscordPlatform
from bot.runtime.wiring import Wiring
from bot.services import posting
from bot.slack import plugin as slack_plugin
from tests.discord.conftest import MONDAY_9, WAIT, QuickPlugin
from tests.fakediscord import FakeDiscord
from tests.fakeslack import FakeSlack
from tests.services.conftest import load_sample
from tests.slack.conftest import CHANNEL as SLACK_CHANNEL
from tests.slack.conftest import KEY as SLACK_KEY
from tests.slack.conftest import FakeClock


@pytest.fixture
def slack() -> Iterator[FakeSlack]:
    """A fake Slack workspace with #general."""
    with FakeSlack(ts_base=int(MONDAY_9.timestamp()) - 86_400) as fake_slack:
        fake_slack.add_channel(SLACK_CHANNEL, "general")
        yield fake_slack


def test_both_platforms_post_once_and_serve_until_stopped(
    fake: FakeDiscord, slack: FakeSlack, settings: Settings, sqlite_url: str
) -> None:
    both = replace(
        settings,
        slack_bot_token=slack.bot_token,
        slack_app_token=slack.app_token,
        slack_api_url=slack.base_url,
        channel=SLACK_CHANNEL,
    )
    database = Database(url=sqlite_url)
    load_sample(database, workspace=SLACK_KEY.workspace_key)
    load_sample(database, workspace=channel_key(guild_id=fake.guild_id, channel_id=0).workspace_key)
    wiring = Wiring(
        settings=both,
        database=database,
        clock=FakeClock(MONDAY_9),
        plugins=[slack_plugin, QuickPlugin()],
        mode="auto",
    )
    stop = threading.Event()
    server = threading.Thread(target=wiring.serve, kwargs={"stop": stop}, name="serve")
    try:
        assert set(wiring.platforms) == {"slack", "discord"}
        discord_platform = wiring.platforms["discord"]
        assert isinstance(discord_platform, DiscordPlatform)
        server.start()
        assert discord_platform.client.ready.wait(WAIT)
        results = wiring.sweep()
        discord_key = next(k for k in results if k.platform == "discord")
        assert results[SLACK_KEY].outcome is posting.Outcome.POSTED
        assert results[discord_key].outcome is posting.Outcome.POSTED
        again = wiring.sweep()
        assert {r.outcome for r in again.values()} == {posting.Outcome.ALREADY}
        assert len([m for m in slack.messages(SLACK_CHANNEL) if m.get("metadata")]) == 1
        assert len([m for m in fake.messages() if m.get("embeds")]) == 1
        # Two channels in two workspaces, each posting its own row of the same first paper.
        with database(write=False) as store:
            posts = [store.post_on(channel=c, local_date=MONDAY_9.date()) for c in store.channels()]
        assert len({p.paper_id for p in posts if p is not None}) == 2
        wiring.start(paused=True)
        assert set(wiring.scheduler.next_runs()) == {str(SLACK_KEY), str(discord_key)}
    finally:
        stop.set()
        server.join(timeout=WAIT)
        wiring.close()
        database.dispose()
    assert not server.is_alive()
    assert discord_platform.client.is_closed()
