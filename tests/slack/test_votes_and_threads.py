"""Issue 4's scenarios over Socket Mode and HTTP: votes and thread comments, kept exactly once."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from typing import Any

from bot.domain import PaperDraft
from bot.export_formats import record_dict
from bot.services import importing, listing, posting
from bot.slack import ids
from tests.fakeslack import (
    FakeSlack,
    message_changed_event,
    message_deleted_event,
    message_event,
    reaction_event,
)
from tests.slack.conftest import CHANNEL, KEY, MEMBER, MONDAY_9, Harness
from tests.wired import SlackBot

ANA = "U0ANA"
REDRAW_INTERVAL = 1.0  # seconds: the Wiring's coalescer redraws a post at most this often


def _counts(harness: Harness, ts: str) -> tuple[str, str]:
    """The vote buttons' texts on the message as Slack now shows it (after pending redraws)."""
    assert harness.bot.coalescer.drain()
    message = harness.fake.message(CHANNEL, ts)
    actions = next(b for b in message["blocks"] if b["type"] == "actions")
    up, down = (e["text"]["text"] for e in actions["elements"])
    return up, down


def _export(harness: Harness) -> list[dict[str, Any]]:
    """The JSON export's posted papers."""
    records = listing.records(uow=harness.bot.database, workspace=KEY.workspace_key)
    return [record_dict(record=r) for r in records if r.posts]


def test_buttons_vote_change_and_withdraw(harness: Harness) -> None:
    ts, value = harness.daily_post()
    harness.click(ids.VOTE_UP, user=MEMBER, message_ts=ts, value=value)
    assert _counts(harness, ts) == ("👍 1", "👎 0")
    harness.click(ids.VOTE_DOWN, user=MEMBER, message_ts=ts, value=value)
    assert _counts(harness, ts) == ("👍 0", "👎 1")
    harness.click(ids.VOTE_DOWN, user=MEMBER, message_ts=ts, value=value)
    assert _counts(harness, ts) == ("👍 0", "👎 0")
    harness.click(ids.VOTE_UP, user=ANA, message_ts=ts, value=value)
    harness.click(ids.VOTE_UP, user=MEMBER, message_ts=ts, value=value)
    assert _counts(harness, ts) == ("👍 2", "👎 0")
    assert _export(harness)[0]["posts"][0]["votes"] == {"up": 2, "down": 0}


def test_reactions_with_skin_tones_are_votes(harness: Harness) -> None:
    ts, _ = harness.daily_post()
    for user, name in [(MEMBER, "+1::skin-tone-3"), (ANA, "thumbsdown"), ("U0CY", "thumbsup")]:
        harness.event(reaction_event(user=user, reaction=name, channel=CHANNEL, item_ts=ts))
    assert _counts(harness, ts) == ("👍 2", "👎 1")
    harness.event(
        reaction_event(user=ANA, reaction="thumbsdown", channel=CHANNEL, item_ts=ts, removed=True)
    )
    harness.event(reaction_event(user=MEMBER, reaction="tada", channel=CHANNEL, item_ts=ts))
    assert _counts(harness, ts) == ("👍 2", "👎 0")


def test_one_vote_per_person_whatever_the_mix(harness: Harness) -> None:
    ts, value = harness.daily_post()
    harness.click(ids.VOTE_DOWN, user=MEMBER, message_ts=ts, value=value)
    harness.event(reaction_event(user=MEMBER, reaction="+1", channel=CHANNEL, item_ts=ts))
    assert _counts(harness, ts) == ("👍 1", "👎 0")  # the latest action wins
    # Removing a reaction that no longer sets the vote leaves the vote alone...
    harness.click(ids.VOTE_DOWN, user=MEMBER, message_ts=ts, value=value)
    harness.event(
        reaction_event(user=MEMBER, reaction="+1", channel=CHANNEL, item_ts=ts, removed=True)
    )
    assert _counts(harness, ts) == ("👍 0", "👎 1")
    # ...and removing the one that does withdraws it.
    harness.event(reaction_event(user=MEMBER, reaction="-1", channel=CHANNEL, item_ts=ts))
    harness.event(
        reaction_event(user=MEMBER, reaction="-1", channel=CHANNEL, item_ts=ts, removed=True)
    )
    assert _counts(harness, ts) == ("👍 0", "👎 0")


def test_reactions_elsewhere_are_ignored(harness: Harness) -> None:
    ts, _ = harness.daily_post()
    other = harness.fake.add_message(CHANNEL, "lunch?", MEMBER)
    harness.event(reaction_event(user=ANA, reaction="+1", channel=CHANNEL, item_ts=other))
    assert _counts(harness, ts) == ("👍 0", "👎 0")


def test_retries_and_redeliveries_count_once(harness: Harness) -> None:
    ts, _ = harness.daily_post()
    event = reaction_event(user=MEMBER, reaction="+1", channel=CHANNEL, item_ts=ts)
    event_id = harness.event(event)
    for attempt in (1, 2, 3):
        harness.event(event, event_id=event_id, retry=attempt)
    reply = message_event(channel=CHANNEL, user=ANA, text="Nice paper", thread_ts=ts)
    reply_id = harness.event(reply)
    harness.event(reply, event_id=reply_id, retry=1)
    harness.event(reply)  # the same message under a new event id: still one comment
    [paper] = _export(harness)
    assert paper["posts"][0]["votes"] == {"up": 1, "down": 0}
    assert [c["text"] for c in paper["posts"][0]["comments"]] == ["Nice paper"]


def test_thread_replies_edits_and_deletions(harness: Harness) -> None:
    ts, _ = harness.daily_post()
    first = message_event(channel=CHANNEL, user=ANA, text="Pipeline bubbles again", thread_ts=ts)
    broadcast = dict(
        message_event(channel=CHANNEL, user=MEMBER, text="Also: stragglers", thread_ts=ts),
        subtype="thread_broadcast",
    )
    gone = message_event(channel=CHANNEL, user=MEMBER, text="oops wrong thread", thread_ts=ts)
    for event in (first, broadcast, gone):
        harness.event(event)
    harness.event(message_changed_event(channel=CHANNEL, previous=first, new_text="Bubbles!"))
    unfurl = message_changed_event(channel=CHANNEL, previous=broadcast, new_text=broadcast["text"])
    harness.event(unfurl)  # an unfurl: same text, not an edit
    harness.event(message_deleted_event(channel=CHANNEL, previous=gone))
    comments = _export(harness)[0]["posts"][0]["comments"]
    assert [(c["user"], c["text"], c["edited"]) for c in comments] == [
        (ANA, "Bubbles!", True),
        (MEMBER, "Also: stragglers", False),
    ]


def test_other_messages_are_acked_and_ignored(harness: Harness) -> None:
    ts, _ = harness.daily_post()
    other_thread = harness.fake.add_message(CHANNEL, "unrelated", MEMBER)
    events = [
        message_event(channel=CHANNEL, user=ANA, text="in another thread", thread_ts=other_thread),
        message_event(channel=CHANNEL, user=ANA, text="top level, no thread"),
        {
            "type": "message",
            "subtype": "channel_join",
            "user": ANA,
            "channel": CHANNEL,
            "ts": "1.1",
            "text": "<@U0ANA> has joined",
        },
        {
            "type": "message",
            "subtype": "bot_message",
            "bot_id": "B0OTHER",
            "channel": CHANNEL,
            "ts": "1.2",
            "text": "beep",
            "thread_ts": ts,
        },
        {"type": "message", "subtype": "some_future_subtype", "channel": CHANNEL, "ts": "1.3"},
        {"type": "app_home_opened", "user": ANA, "channel": "D1", "tab": "home"},
    ]
    for event in events:
        harness.event(event)  # each is acked (200 / envelope ack), none is a 404
    assert _export(harness)[0]["posts"][0]["comments"] == []


def test_out_of_order_edit_and_delete(harness: Harness) -> None:
    ts, _ = harness.daily_post()
    deleted = message_event(channel=CHANNEL, user=ANA, text="regret", thread_ts=ts)
    edited = message_event(channel=CHANNEL, user=MEMBER, text="draft", thread_ts=ts)
    harness.event(message_deleted_event(channel=CHANNEL, previous=deleted))
    harness.event(message_changed_event(channel=CHANNEL, previous=edited, new_text="final"))
    harness.event(deleted)  # arrives late: must not come back
    harness.event(edited)  # arrives late: the newer text stays
    comments = _export(harness)[0]["posts"][0]["comments"]
    assert [(c["text"], c["edited"]) for c in comments] == [("final", True)]


def test_burst_of_clicks_ends_right_with_few_updates(harness: Harness) -> None:
    ts, value = harness.daily_post()
    started = time.monotonic()
    rng = random.Random(7)
    users = [f"U{n:04d}" for n in range(50)]
    expected: dict[str, int] = {}
    for _ in range(200):
        user, up = rng.choice(users), rng.random() < 0.6
        action = ids.VOTE_UP if up else ids.VOTE_DOWN
        harness.click(action, user=user, message_ts=ts, value=value)
        value_now = 1 if up else -1
        expected[user] = 0 if expected.get(user) == value_now else value_now
    want = (sum(v > 0 for v in expected.values()), sum(v < 0 for v in expected.values()))
    assert _counts(harness, ts) == (f"👍 {want[0]}", f"👎 {want[1]}")
    elapsed = time.monotonic() - started
    updates = len(harness.fake.calls("chat.update"))
    # Coalesced: a leading redraw, then at most one a second (the interval) and the trailing
    # one, however long the burst took on this machine; never one per click.
    assert 1 <= updates <= min(elapsed / REDRAW_INTERVAL + 2, 199), (
        updates,
        elapsed,
    )
    assert _export(harness)[0]["posts"][0]["votes"] == {"up": want[0], "down": want[1]}


def test_export_json_carries_votes_and_comments(harness: Harness) -> None:
    ts, value = harness.daily_post()
    harness.click(ids.VOTE_UP, user=ANA, message_ts=ts, value=value)
    harness.event(message_event(channel=CHANNEL, user=ANA, text="see §3", thread_ts=ts))
    [paper] = _export(harness)
    post = paper["posts"][0]
    assert post["channel"] == f"slack:{harness.bot.team_id}:{CHANNEL}" and post["message_id"] == ts
    assert post["permalink"] and post["private"] is False
    assert post["votes"] == {"up": 1, "down": 0}
    assert json.loads(json.dumps(post["comments"]))[0]["text"] == "see §3"


def test_posts_name_who_added_the_paper(fake: FakeSlack, make_bot: Callable[..., SlackBot]) -> None:
    fake.add_user("U0CAM", "cam", display_name="Cam the Curator")
    bot = make_bot()
    draft = PaperDraft(title="Attention is all you need", abstract="Transformers.", origin="t:1")
    importing.import_drafts(uow=bot.database, drafts=[draft], now=MONDAY_9, added_by="U0CAM")
    posting.post_due(poster=bot.poster, now=MONDAY_9)
    [message] = [m for m in fake.messages(CHANNEL) if m.get("metadata")]
    assert "Added by Cam the Curator" in json.dumps(message["blocks"], ensure_ascii=False)
    for _ in range(3):
        bot.chat.display_name(user="U0CAM")
    assert len([c for c in fake.calls("users.info") if c.get("user") == "U0CAM"]) == 1  # cached


def test_top_and_add_commands(harness: Harness) -> None:
    ts, value = harness.daily_post()
    harness.click(ids.VOTE_UP, user=ANA, message_ts=ts, value=value)
    harness.event(message_event(channel=CHANNEL, user=ANA, text="worth it", thread_ts=ts))
    top = harness.command("top week", user=MEMBER)
    assert "*Most voted, the last week:*" in top and "👍 1 · 👎 0 · 💬 1" in top
    assert "*Most discussed, the last week:*" in top
    assert "Usage: `/paperclub top" in harness.command("top decade", user=MEMBER)
    added = harness.command("add 2104.04473", user=MEMBER)
    assert "Added “*arXiv:2104.04473*”" in added
    assert "arXiv could not be reached: connection refused, so it is added as typed" in added
