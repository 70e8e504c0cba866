"""Votes on Discord: the 👍/👎 buttons and reactions (any skin tone), one vote per person."""

from __future__ import annotations

import sqlite3
import time
from typing import Any

from bot.discord.embeds import vote_custom_id
from bot.discord.render import render
from bot.domain import VoteCount
from bot.wording import replies
from tests.discord.conftest import DiscordHarness

DEFERRED_UPDATE = 6
CHANNEL_MESSAGE = 4  # an interaction answered with a message at once
EPHEMERAL = 1 << 6  # only the person who clicked sees it


def _votes(harness: DiscordHarness, message: dict[str, Any]) -> VoteCount:
    """The post's counts in the archive."""
    with harness.database(write=False) as store:
        post = store.post_by_message(channel=harness.key, message_id=message["id"])
        assert post is not None
        return store.vote_count(post_id=post.id)


def _labels(harness: DiscordHarness, message: dict[str, Any]) -> list[str]:
    """The vote buttons' labels as Discord shows them now."""
    shown = harness.fake.message(message["id"])
    return [b["label"] for b in shown["components"][0]["components"]]


def _post_id(harness: DiscordHarness, message: dict[str, Any]) -> int:
    """The post id a message's buttons carry."""
    with harness.database(write=False) as store:
        post = store.post_by_message(channel=harness.key, message_id=message["id"])
    assert post is not None
    return post.id


def test_buttons_vote_switch_and_withdraw(harness: DiscordHarness) -> None:
    message = harness.daily_post()
    fake, post_id = harness.fake, _post_id(harness, message)
    up, down = (vote_custom_id(post_id=post_id, up=way) for way in (True, False))
    click = fake.click(message["id"], up)
    assert fake.wait_callback(click.id)["type"] == DEFERRED_UPDATE
    assert _votes(harness, message) == VoteCount(up=1, down=0)
    harness.redrawn()
    assert _labels(harness, message) == ["👍 1", "👎 0"]
    fake.wait_callback(fake.click(message["id"], down).id)  # the other button changes it
    assert _votes(harness, message) == VoteCount(up=0, down=1)
    fake.wait_callback(fake.click(message["id"], down).id)  # the same one again withdraws it
    assert _votes(harness, message) == VoteCount(up=0, down=0)
    fake.wait_callback(fake.click(message["id"], up, user=fake.bob_id).id)
    harness.redrawn()
    assert _labels(harness, message) == ["👍 1", "👎 0"]


def test_reactions_vote_with_any_skin_tone(harness: DiscordHarness) -> None:
    message = harness.daily_post()
    fake = harness.fake
    harness.events(lambda: fake.react(message["id"], "👍🏽"))
    assert _votes(harness, message) == VoteCount(up=1, down=0)
    harness.events(lambda: fake.react(message["id"], "👎", user=fake.bob_id))
    assert _votes(harness, message) == VoteCount(up=1, down=1)
    harness.events(lambda: fake.unreact(message["id"], "👍🏽"))
    assert _votes(harness, message) == VoteCount(up=0, down=1)
    harness.redrawn()
    assert _labels(harness, message) == ["👍 0", "👎 1"]


def test_the_latest_action_wins_and_removing_another_reaction_keeps_it(
    harness: DiscordHarness,
) -> None:
    message = harness.daily_post()
    fake, post_id = harness.fake, _post_id(harness, message)
    harness.events(lambda: fake.react(message["id"], "👍"))
    fake.wait_callback(fake.click(message["id"], vote_custom_id(post_id=post_id, up=False)).id)
    assert _votes(harness, message) == VoteCount(up=0, down=1)
    harness.events(lambda: fake.unreact(message["id"], "👍"))  # not what set the vote
    assert _votes(harness, message) == VoteCount(up=0, down=1)


def test_reactions_elsewhere_and_other_emoji_are_ignored(harness: DiscordHarness) -> None:
    message = harness.daily_post()
    fake = harness.fake
    other = fake.user_says(text="an ordinary message")
    harness.events(lambda: fake.react(other["id"], "👍"))
    harness.events(lambda: fake.react(message["id"], "🎉"))
    assert _votes(harness, message) == VoteCount(up=0, down=0)
    assert not fake.requests("PATCH")


def test_a_burst_of_clicks_ends_right_with_few_redraws(harness: DiscordHarness) -> None:
    message = harness.daily_post()
    fake, post_id = harness.fake, _post_id(harness, message)
    up = vote_custom_id(post_id=post_id, up=True)
    people = [fake.add_member(f"reader{n}") for n in range(30)]
    clicks = [fake.click(message["id"], up, user=person) for person in people]
    for click in clicks:
        fake.wait_callback(click.id)
    harness.redrawn()
    assert _votes(harness, message) == VoteCount(up=30, down=0)
    assert _labels(harness, message) == ["👍 30", "👎 0"]
    # Coalesced: a leading redraw and a trailing one per second, not one per click.
    redraws = fake.requests("PATCH", f"/channels/{fake.channel_id}/messages/{message['id']}")
    assert 1 <= len(redraws) <= 5


def test_a_click_while_the_archive_is_locked_is_answered_not_saved(
    harness: DiscordHarness,
) -> None:
    message = harness.daily_post()
    up = vote_custom_id(post_id=_post_id(harness, message), up=True)
    holder = sqlite3.connect(harness.database.url.removeprefix("sqlite:///"), isolation_level=None)
    try:
        holder.execute("BEGIN IMMEDIATE")  # another process holds the write lock
        started = time.monotonic()
        answer = harness.fake.wait_callback(harness.fake.click(message["id"], up).id)
        assert time.monotonic() - started < 3.0  # Discord's deadline for the first answer
        holder.execute("ROLLBACK")
    finally:
        holder.close()
    assert answer["type"] == CHANNEL_MESSAGE
    assert answer["data"]["flags"] & EPHEMERAL
    assert answer["data"]["content"] == render(message=replies.VOTE_NOT_SAVED)
    assert _votes(harness, message) == VoteCount(up=0, down=0)
