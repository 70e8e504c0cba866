"""Slack's metrics, from the real bot (Socket Mode and HTTP) against the fake Slack: each action
moves exactly its own counters, by exactly how much it changed."""

from __future__ import annotations

import time
from typing import Any

from bot.services import posting
from bot.slack import ids
from tests.fakeslack import (
    block_actions_payload,
    interactive_body,
    message_changed_event,
    message_deleted_event,
    message_event,
    reaction_event,
)
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
from tests.slack.conftest import CHANNEL, MEMBER, Harness

ANA = "U0ANA"
SAMPLES = Samples(platform="slack")
posts, votes, comments, errors = SAMPLES.posts, SAMPLES.votes, SAMPLES.comments, SAMPLES.errors


def click_payload(harness: Harness, *, ts: str, value: str, stamped: float) -> None:
    """Click 👍 as MEMBER, with Slack's action_ts saying `stamped`, as this mode delivers it."""
    payload: dict[str, Any] = block_actions_payload(
        ids.VOTE_UP, value, user_id=MEMBER, message_ts=ts, channel_id=CHANNEL
    )
    payload["actions"][0]["action_ts"] = f"{stamped:.6f}"
    if harness.mode == "socket":
        harness.fake.wait_ack(harness.fake.push("interactive", payload))
    else:
        assert harness.post(interactive_body(payload))[0] == 200


def test_daily_posts_are_counted_by_outcome(harness: Harness) -> None:
    before = read()
    harness.daily_post()
    assert totals(moved=changes(before=before, after=read())) == {posts("posted"): 1}
    before = read()
    assert {r.outcome for r in harness.sweep().values()} == {posting.Outcome.ALREADY}
    assert totals(moved=changes(before=before, after=read())) == {posts("already"): 1}


def test_clicks_and_reactions_count_each_stored_change_once(harness: Harness) -> None:
    ts, value = harness.daily_post()
    before = read()
    harness.click(ids.VOTE_UP, user=MEMBER, message_ts=ts, value=value)
    harness.click(ids.VOTE_UP, user=MEMBER, message_ts=ts, value=value)  # withdrawn: a change
    moved = changes(before=before, after=read())
    assert totals(moved=moved) == {votes("button"): 2}
    assert observations(moved=moved, name=LAG, platform="slack") == 2

    before = read()
    event = reaction_event(user=ANA, reaction="+1", channel=CHANNEL, item_ts=ts)
    event_id = harness.event(event)
    harness.event(event, event_id=event_id, retry=1)  # a redelivery changes nothing
    harness.event(reaction_event(user=ANA, reaction="tada", channel=CHANNEL, item_ts=ts))
    moved = changes(before=before, after=read())
    assert totals(moved=moved) == {votes("reaction"): 1}
    assert observations(moved=moved, name=LAG, platform="slack") == 3  # every delivery is timed


def test_thread_replies_edits_and_deletions_are_counted_by_action(harness: Harness) -> None:
    ts, _ = harness.daily_post()
    kept = message_event(channel=CHANNEL, user=ANA, text="Pipeline bubbles again", thread_ts=ts)
    gone = message_event(channel=CHANNEL, user=MEMBER, text="oops wrong thread", thread_ts=ts)
    elsewhere = message_event(channel=CHANNEL, user=ANA, text="top level, no thread")
    before = read()
    for event in (kept, gone, elsewhere, kept):  # the last: the same message, a new event id
        harness.event(event)
    harness.event(message_changed_event(channel=CHANNEL, previous=kept, new_text="Bubbles!"))
    harness.event(message_changed_event(channel=CHANNEL, previous=gone, new_text=gone["text"]))
    harness.event(message_deleted_event(channel=CHANNEL, previous=gone))
    moved = changes(before=before, after=read())
    assert totals(moved=moved) == {comments("new"): 2, comments("edit"): 1, comments("delete"): 1}
    assert observations(moved=moved, name=LAG, platform="slack") == 7


def test_searches_are_timed_and_commands_carry_no_lag(harness: Harness) -> None:
    before = read()
    harness.command("search pipeline", user=MEMBER)
    after = read()
    assert observed(before=before, after=after, name=SEARCH, platform="slack") > 0
    moved = changes(before=before, after=after)
    assert totals(moved=moved) == {}
    assert observations(moved=moved, name=LAG, platform="slack") == 0  # a command has no time


def test_api_errors_are_counted_by_slacks_code(harness: Harness) -> None:
    harness.fake.fail_next("chat.postMessage", error="channel_not_found")
    before = read()
    assert {r.outcome for r in harness.sweep().values()} == {posting.Outcome.FAILED}
    assert totals(moved=changes(before=before, after=read())) == {
        errors("channel_not_found"): 1,
        posts("failed"): 1,
    }


def test_a_rate_limit_waited_out_is_an_error_all_the_same(harness: Harness) -> None:
    harness.fake.fail_next("chat.postMessage", status=429, retry_after=0, times=2)
    before = read()
    harness.daily_post()  # slack_sdk waits and retries: the post goes out on the third try
    assert totals(moved=changes(before=before, after=read())) == {
        errors("ratelimited"): 2,
        posts("posted"): 1,
    }


def test_a_code_not_shaped_like_one_is_counted_as_other(harness: Harness) -> None:
    harness.fake.fail_next("chat.postMessage", error="Not A Code <b>" + "x" * 50)
    before = read()
    harness.sweep()
    assert totals(moved=changes(before=before, after=read())) == {
        errors("other"): 1,
        posts("failed"): 1,
    }


def test_event_lag_runs_from_slacks_stamp_and_never_below_zero(harness: Harness) -> None:
    ts, value = harness.daily_post()
    other = harness.fake.add_message(CHANNEL, "lunch?", MEMBER)
    late = dict(
        reaction_event(user=ANA, reaction="tada", channel=CHANNEL, item_ts=other),
        event_ts=f"{time.time() - LATE:.6f}",
    )
    before = read()
    harness.event(late)
    lag = observed(before=before, after=read(), name=LAG, platform="slack")
    assert LATE <= lag < LATE + 10

    before = read()
    click_payload(harness, ts=ts, value=value, stamped=time.time() - LATE)
    lag = observed(before=before, after=read(), name=LAG, platform="slack")
    assert LATE <= lag < LATE + 10

    before = read()
    harness.event(dict(late, event_ts=f"{time.time() + 1000:.6f}"))  # Slack's clock ahead
    assert observed(before=before, after=read(), name=LAG, platform="slack") == 0.0
