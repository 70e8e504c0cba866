"""What people do while the app listens or not, and the read methods that show it after:
reactions.get, conversations.replies, and the non-Marketplace limits."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from slack_bolt import Ack, App
from slack_sdk.errors import SlackApiError

from tests.fakeslack import FakeSlack, socket_mode_app

CHANNEL = "C0001"


def _post(fake: FakeSlack) -> str:
    """A bot message to react to and reply under."""
    return str(fake.client().chat_postMessage(channel=CHANNEL, text="paper")["ts"])


def test_reactions_are_kept_and_dropped_with_no_listener(fake: FakeSlack) -> None:
    ts = _post(fake)
    act = fake.people.react("U0001", CHANNEL, ts, "+1::skin-tone-2")
    assert act is not None and act.via is None  # nobody connected: the event is gone
    assert fake.people.react("U0001", CHANNEL, ts, "+1::skin-tone-2") is None
    fake.people.react("U0002", CHANNEL, ts, "+1::skin-tone-2")
    fake.people.react("U0002", CHANNEL, ts, "tada")
    assert fake.people.unreact("U0002", CHANNEL, ts, "tada") is not None
    assert fake.people.unreact("U0002", CHANNEL, ts, "tada") is None
    answer = fake.client().reactions_get(channel=CHANNEL, timestamp=ts, full=True)
    assert answer["type"] == "message" and answer["channel"] == CHANNEL
    assert answer["message"]["ts"] == ts and answer["message"]["permalink"]
    assert answer["message"]["reactions"] == [
        {"name": "+1::skin-tone-2", "users": ["U0001", "U0002"], "count": 2}
    ]


def test_reactions_get_without_full_may_cut_users(fake: FakeSlack) -> None:
    ts = _post(fake)
    for n in range(60):
        fake.people.react(f"U1{n:04d}", CHANNEL, ts, "+1")
    cut = fake.client().reactions_get(channel=CHANNEL, timestamp=ts)["message"]["reactions"][0]
    whole = fake.client().reactions_get(channel=CHANNEL, timestamp=ts, full=True)
    assert cut["count"] == 60 and len(cut["users"]) < 60
    assert len(whole["message"]["reactions"][0]["users"]) == 60
    with pytest.raises(SlackApiError) as info:
        fake.client().reactions_get(channel=CHANNEL, timestamp="1.000001")
    assert info.value.response["error"] == "message_not_found"


def test_events_reach_a_socket_mode_app_while_it_is_connected(
    fake: FakeSlack, make_app: Any
) -> None:
    ts = _post(fake)
    seen: list[dict[str, Any]] = []
    got = threading.Event()
    app: App = make_app()

    @app.event("reaction_added")
    def added(ack: Ack, event: dict[str, Any]) -> None:
        ack()
        seen.append(event)
        got.set()

    with socket_mode_app(app, fake):
        act = fake.people.react("U0001", CHANNEL, ts, "+1")
        assert act is not None and act.via == "socket_mode"
        assert fake.wait_ack(str(act.delivery))
        assert got.wait(5)
    assert seen[0]["reaction"] == "+1" and seen[0]["item"]["ts"] == ts
    # The app closed its socket; the server sees it gone a moment later.
    deadline = time.monotonic() + 5
    while fake.socket_mode.open_connections and time.monotonic() < deadline:
        time.sleep(0.01)
    later = fake.people.react("U0002", CHANNEL, ts, "+1")
    assert later is not None and later.via is None  # after the app left: dropped


def test_replies_edits_and_deletes_shape_the_thread(fake: FakeSlack) -> None:
    ts = _post(fake)
    replies = [fake.people.reply("U0001", CHANNEL, ts, f"reply {n}").ts for n in range(5)]
    fake.people.edit(CHANNEL, replies[1], "edited <b>")
    fake.people.delete(CHANNEL, replies[2])
    first = fake.client().conversations_replies(channel=CHANNEL, ts=ts, limit=3)
    assert [m["ts"] for m in first["messages"]] == [ts, replies[0], replies[1]]
    assert first["has_more"] is True
    assert first["messages"][2]["text"] == "edited <b>" and first["messages"][2]["edited"]["ts"]
    cursor = first["response_metadata"]["next_cursor"]
    second = fake.client().conversations_replies(channel=CHANNEL, ts=ts, limit=3, cursor=cursor)
    assert [m["ts"] for m in second["messages"]] == [ts, replies[3], replies[4]]
    assert second["has_more"] is False and "response_metadata" not in second
    assert fake.message(CHANNEL, ts)["reply_count"] == 4


def test_non_marketplace_limits_answer_429_with_retry_after() -> None:
    with FakeSlack(history_window=1) as fake:
        fake.add_channel(CHANNEL, "general")
        ts = _post(fake)
        for n in range(20):
            fake.people.reply("U0001", CHANNEL, ts, f"r{n}")
        client = fake.client()  # no retry handlers: the 429 reaches us
        page = client.conversations_replies(channel=CHANNEL, ts=ts, limit=200)
        assert len(page["messages"]) == 15 and page["has_more"] is True
        with pytest.raises(SlackApiError) as info:
            client.conversations_replies(channel=CHANNEL, ts=ts)
        assert info.value.response.status_code == 429
        assert info.value.response["error"] == "ratelimited"
        assert int(info.value.response.headers["Retry-After"]) >= 1
        # Per method: history has its own allowance.
        assert len(client.conversations_history(channel=CHANNEL, limit=100)["messages"]) == 1
        assert fake.calls("conversations.replies")[0]["limit"] == "200"  # as asked
        fake.limits.tier("reactions.get", calls=1, window=60)
        client.reactions_get(channel=CHANNEL, timestamp=ts)
        with pytest.raises(SlackApiError) as info:
            client.reactions_get(channel=CHANNEL, timestamp=ts)
        assert info.value.response.status_code == 429
