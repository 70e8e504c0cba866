"""Discord's metrics, from the real bot (discord.py, its gateway and REST calls) against the fake
Discord: each action moves exactly its own counters, by exactly how much it changed."""

from __future__ import annotations

import copy
import time
from typing import Any

from bot.discord.embeds import vote_custom_id
from bot.discord.history import DISCORD_EPOCH_MS
from bot.services import posting
from tests.discord.conftest import DiscordHarness
from tests.metrics.reading import (
    LAG,
    LATE,
    SEARCH,
    Samples,
    changes,
    observations,
    observed,
    read,
    totals,
)

SAMPLES = Samples(platform="discord")
posts, votes, comments, errors = SAMPLES.posts, SAMPLES.votes, SAMPLES.comments, SAMPLES.errors


def snowflake(*, at: float) -> str:
    """A Discord id made at Unix time `at`."""
    return str((int(at * 1000) - DISCORD_EPOCH_MS) << 22)


def _up(harness: DiscordHarness, message: dict[str, Any]) -> str:
    """The custom id of the post's 👍 button."""
    with harness.database(write=False) as store:
        post = store.post_by_message(channel=harness.key, message_id=message["id"])
    assert post is not None
    return vote_custom_id(post_id=post.id, up=True)


def test_daily_posts_are_counted_by_outcome(harness: DiscordHarness) -> None:
    before = read()
    harness.daily_post()
    assert totals(moved=changes(before=before, after=read())) == {posts("posted"): 1}
    before = read()
    assert {r.outcome for r in harness.sweep().values()} == {posting.Outcome.ALREADY}
    assert totals(moved=changes(before=before, after=read())) == {posts("already"): 1}


def test_clicks_and_reactions_count_each_stored_change_once(harness: DiscordHarness) -> None:
    message = harness.daily_post()
    fake, up = harness.fake, _up(harness, message)
    before = read()
    fake.wait_callback(fake.click(message["id"], up).id)
    fake.wait_callback(fake.click(message["id"], up).id)  # the same again withdraws: a change
    moved = changes(before=before, after=read())
    assert totals(moved=moved) == {votes("button"): 2}
    assert observations(moved=moved, name=LAG, platform="discord") == 2  # from their ids

    before = read()
    harness.events(lambda: fake.react(message["id"], "👍🏽", user=fake.bob_id))
    harness.events(lambda: fake.react(message["id"], "🎉", user=fake.bob_id))  # no vote
    moved = changes(before=before, after=read())
    assert totals(moved=moved) == {votes("reaction"): 1}
    assert observations(moved=moved, name=LAG, platform="discord") == 0  # no stamp of their own


def test_thread_replies_edits_and_deletions_are_counted_by_action(
    harness: DiscordHarness,
) -> None:
    message = harness.daily_post()
    fake, thread = harness.fake, message["id"]  # a thread opened from a message takes its id
    said: dict[str, Any] = {}
    before = read()
    harness.events(lambda: said.update(fake.user_says(text="typo", thread=thread)))
    harness.events(lambda: fake.user_says(text="not in the thread"))
    harness.events(lambda: fake.user_edits(said["id"], "fixed"))
    harness.events(lambda: fake.user_deletes(said["id"]))
    moved = changes(before=before, after=read())
    assert totals(moved=moved) == {comments("new"): 1, comments("edit"): 1, comments("delete"): 1}
    # Two messages and an edit carry a time; a deletion does not.
    assert observations(moved=moved, name=LAG, platform="discord") == 3


def test_searches_are_timed(harness: DiscordHarness) -> None:
    before = read()
    harness.command("search", {"query": "pipeline"})
    after = read()
    assert observed(before=before, after=after, name=SEARCH, platform="discord") > 0
    moved = changes(before=before, after=after)
    assert totals(moved=moved) == {}
    assert observations(moved=moved, name=LAG, platform="discord") == 1  # the interaction


def test_api_errors_are_counted_by_discords_json_code(harness: DiscordHarness) -> None:
    fake = harness.fake
    path = f"/channels/{fake.channel_id}/messages"
    fake.fail_next("POST", path, status=403, code=50013, message="Missing Permissions")
    before = read()
    assert {r.outcome for r in harness.sweep().values()} == {posting.Outcome.FAILED}
    assert totals(moved=changes(before=before, after=read())) == {
        errors("50013"): 1,
        posts("failed"): 1,
    }


def test_a_rate_limit_discord_py_waits_out_is_counted_by_status(harness: DiscordHarness) -> None:
    fake = harness.fake
    fake.fail_next("POST", f"/channels/{fake.channel_id}/messages", status=429, times=2)
    before = read()
    harness.daily_post()  # discord.py waits and retries: the post goes out on the third try
    assert totals(moved=changes(before=before, after=read())) == {
        errors("429"): 2,
        posts("posted"): 1,
    }


def test_an_interaction_answer_refused_is_counted(harness: DiscordHarness) -> None:
    message = harness.daily_post()
    fake, up = harness.fake, _up(harness, message)
    # The deferral goes to the interaction's callback, by webhook, past discord.py's request().
    fake.fail_next(
        "POST",
        "/interactions/{id}/{token}/callback",
        status=404,
        code=10062,
        message="Unknown interaction",
    )
    before = read()
    click = fake.click(message["id"], up)
    fake.wait_request("POST", f"/interactions/{click.id}/{click.token}/callback", timeout=10)
    fake.wait_until(lambda: errors("10062") in read(), timeout=10)
    moved = changes(before=before, after=read())
    assert totals(moved=moved) == {votes("button"): 1, errors("10062"): 1}


def test_event_lag_runs_from_the_snowflake(harness: DiscordHarness) -> None:
    fake = harness.fake
    said: dict[str, Any] = {}
    harness.events(lambda: said.update(fake.user_says(text="an ordinary message")))
    late = dict(copy.deepcopy(said), id=snowflake(at=time.time() - LATE), guild_id=fake.guild_id)
    before = read()
    # A message made in the past is no member action the fake offers: its frame is sent as is.
    send = fake.gateway.dispatch(event="MESSAGE_CREATE", data=late, require_client=True)
    harness.events(lambda: fake._on_loop(send))
    lag = observed(before=before, after=read(), name=LAG, platform="discord")
    assert LATE <= lag < LATE + 10
