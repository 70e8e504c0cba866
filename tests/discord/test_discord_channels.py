"""Channels on Discord: a private channel's words stay there, a refused channel is logged with
a hint and its paper goes back to the queue, and a post lost in a crash is found, not doubled."""

from __future__ import annotations

import logging
import socket
from datetime import timedelta

import pytest
from sqlalchemy import text

from bot.discord.deps import channel_key
from bot.services import posting
from tests.discord.conftest import DiscordHarness


def test_privacy_comes_from_discord(harness: DiscordHarness) -> None:
    fake, chat = harness.fake, harness.platform.chat
    hidden = fake.add_channel("committee", private=True)
    public_thread = fake.add_thread(name="chat")
    private_thread = fake.add_thread(name="secret", private=True)
    assert chat.is_private(channel=channel_key(guild_id=fake.guild_id, channel_id=hidden))
    assert chat.is_private(channel=channel_key(guild_id=fake.guild_id, channel_id=private_thread))
    assert not chat.is_private(channel=harness.key)
    assert not chat.is_private(
        channel=channel_key(guild_id=fake.guild_id, channel_id=public_thread)
    )
    # A channel Discord will not tell us about counts as private: nothing leaks by default.
    refused = fake.add_channel("staff", refused=True)
    assert chat.is_private(channel=channel_key(guild_id=fake.guild_id, channel_id=refused))


def test_a_private_channels_comments_are_found_only_there(harness: DiscordHarness) -> None:
    fake = harness.fake
    hidden = fake.add_channel("committee", private=True)
    harness.command(
        "schedule", {"when": "09:00 Europe/Berlin daily"}, user=fake.bob_id, channel=hidden
    )
    harness.sweep()
    [post] = harness.posts(hidden)
    harness.events(lambda: fake.user_says(text="confidential quokka", thread=post["id"]))
    outside = harness.command("search", {"query": "quokka"})["content"]
    inside = harness.command("search", {"query": "quokka"}, channel=hidden)["content"]
    assert "confidential" not in outside
    assert "confidential" in inside


def test_a_refused_channel_is_logged_with_a_hint_and_the_paper_requeued(
    harness: DiscordHarness, caplog: pytest.LogCaptureFixture
) -> None:
    fake = harness.fake
    refused = fake.add_channel("staff", refused=True)
    key = channel_key(guild_id=fake.guild_id, channel_id=refused)
    with harness.database() as store:
        channel = store.save_channel(key=key, schedule=store.channels()[0].schedule, private=True)
        before = [p.id for p in store.queued(workspace=key.workspace_key, channel=channel, limit=1)]
    with caplog.at_level(logging.WARNING):
        result = posting.post_today(
            poster=harness.wiring.posters["discord"], channel=key, now=harness.clock.now()
        )
    assert result.outcome is posting.Outcome.FAILED
    with harness.database(write=False) as store:
        assert [
            p.id for p in store.queued(workspace=key.workspace_key, channel=channel, limit=1)
        ] == before
        assert store.post_on(channel=channel, local_date=harness.clock.now().date()) is None
    assert "View Channel" in caplog.text


def test_a_post_lost_in_a_crash_is_found_in_history(harness: DiscordHarness) -> None:
    """The process died after Discord made the message but before the archive kept its id:
    once the claim's lease is over, the next sweep finds it by its button and posts no more."""
    message = harness.daily_post()
    with harness.database.engine.begin() as connection:
        connection.execute(
            text(
                "UPDATE posts SET state = 'pending', message_id = NULL, permalink = NULL, "
                "claimed_by = :dead"
            ),
            {"dead": f"{socket.gethostname()}:{2**22 + 1}:crashed"},  # no such pid
        )
    later = harness.clock.now() + posting.LEASE + timedelta(seconds=1)
    result = posting.post_due(poster=harness.wiring.posters["discord"], now=later)[harness.key]
    assert result.outcome is posting.Outcome.RECOVERED
    assert [m["id"] for m in harness.posts()] == [message["id"]]
    with harness.database(write=False) as store:
        post = store.post_by_message(channel=harness.key, message_id=message["id"])
    assert post is not None and post.permalink and post.permalink.endswith(message["id"])
