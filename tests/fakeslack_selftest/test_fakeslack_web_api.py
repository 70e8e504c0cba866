"""The Web API as the real slack_sdk WebClient sees it."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from tests.fakeslack import FakeSlack


def _error(call: Any) -> str:
    with pytest.raises(SlackApiError) as info:
        call()
    return str(info.value.response["error"])


def test_auth_test_answers_the_bot_identity_and_scopes(fake: FakeSlack) -> None:
    response = fake.client().auth_test()
    assert response["user_id"] == "U0BOT"
    assert response["bot_id"] == "B0BOT"
    assert response["team_id"] == "T0001"
    assert "chat:write" in response.headers["x-oauth-scopes"]


def test_unknown_and_missing_tokens_are_refused(fake: FakeSlack) -> None:
    assert _error(WebClient(token="xoxb-nope", base_url=fake.base_url).auth_test) == "invalid_auth"
    assert _error(WebClient(base_url=fake.base_url).auth_test) == "not_authed"
    fake.revoke_token("xoxb-test")
    assert _error(fake.client().auth_test) == "token_revoked"


def test_app_token_is_not_a_bot_token(fake: FakeSlack) -> None:
    assert _error(fake.client(token="xapp-test").auth_test) == "not_allowed_token_type"
    url = fake.client().apps_connections_open(app_token="xapp-test")["url"]
    assert url.startswith(fake.socket_mode.url + "/link/?ticket=")
    client = fake.client()
    assert _error(lambda: client.apps_connections_open(app_token="xoxb-test")) == (
        "not_allowed_token_type"
    )


def test_post_stores_message_with_increasing_ts(fake: FakeSlack) -> None:
    client = fake.client()
    first = client.chat_postMessage(channel="C0001", text="one")
    second = client.chat_postMessage(channel="#general", text="two", thread_ts=first["ts"])
    assert first["ts"] == "1700000000.000100"
    assert float(second["ts"]) > float(first["ts"])
    stored = fake.messages("C0001")
    assert [m["text"] for m in stored] == ["one", "two"]
    assert stored[0]["user"] == "U0BOT" and stored[0]["channel"] == "C0001"
    assert stored[1]["thread_ts"] == first["ts"]
    assert stored[0]["reply_count"] == 1 and stored[0]["latest_reply"] == second["ts"]
    assert fake.calls("chat.postMessage")[0] == {"channel": "C0001", "text": "one"}


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"channel": "C404", "text": "x"}, "channel_not_found"),
        ({"channel": "C0002", "text": "x"}, "not_in_channel"),
        (
            {"channel": "C0001", "text": "x", "metadata": {"event_payload": {}}},
            "invalid_metadata_format",
        ),
    ],
)
def test_post_validation_errors_store_nothing(
    fake: FakeSlack, kwargs: dict[str, Any], error: str
) -> None:
    fake.add_channel("C0002", "random", member=False)
    client = fake.client()
    assert _error(lambda: client.chat_postMessage(**kwargs)) == error
    assert fake.messages("C0001") == [] and fake.messages("C0002") == []


def test_no_text_is_refused(fake: FakeSlack) -> None:
    # chat_postMessage() itself warns (an error under our filterwarnings) before sending a
    # message without text, so go through api_call to reach the server's check.
    client = fake.client()
    call = lambda: client.api_call("chat.postMessage", json={"channel": "C0001", "text": " "})  # noqa: E731
    assert _error(call) == "no_text"
    assert fake.messages("C0001") == []
    with pytest.warns(UserWarning, match="top-level `text` argument is missing"):
        client.chat_postMessage(channel="C0001", blocks=[{"type": "divider"}])


def _button(text: str = "Up", value: str = "v", action_id: str = "a") -> dict[str, Any]:
    return {
        "type": "button",
        "text": {"type": "plain_text", "text": text},
        "value": value,
        "action_id": action_id,
    }


@pytest.mark.parametrize(
    "blocks",
    [
        [{"type": "divider"}] * 51,
        [{"type": "section", "text": {"type": "mrkdwn", "text": "x" * 3001}}],
        [{"type": "header", "text": {"type": "plain_text", "text": "x" * 151}}],
        [{"type": "header", "text": {"type": "mrkdwn", "text": "bold"}}],
        [{"type": "actions", "elements": [_button(text="x" * 76)]}],
        [{"type": "actions", "elements": [_button(value="x" * 2001)]}],
        [{"type": "actions", "elements": [_button(action_id="x" * 256)]}],
        [{"type": "divider", "block_id": "x" * 256}],
        [{"type": "no_such_block"}],
    ],
)
def test_block_kit_limits_give_invalid_blocks(fake: FakeSlack, blocks: list[Any]) -> None:
    client = fake.client()
    with pytest.raises(SlackApiError) as info:
        client.chat_postMessage(channel="C0001", text="fallback", blocks=blocks)
    assert info.value.response["error"] == "invalid_blocks"
    assert info.value.response["response_metadata"]["messages"][0].startswith("[ERROR]")
    assert fake.messages("C0001") == []


def test_blocks_at_the_limits_are_accepted(fake: FakeSlack) -> None:
    blocks: list[dict[str, Any]] = [
        {"type": "header", "text": {"type": "plain_text", "text": "h" * 150}},
        {"type": "section", "text": {"type": "mrkdwn", "text": "s" * 3000}, "block_id": "b" * 255},
        {
            "type": "actions",
            "elements": [_button(text="t" * 75, value="v" * 2000, action_id="a" * 255)],
        },
        *[{"type": "divider"}] * 47,
    ]
    fake.client().chat_postMessage(channel="C0001", text="fallback", blocks=blocks)
    assert len(fake.messages("C0001")[0]["blocks"]) == 50


def test_form_encoded_blocks_and_token_in_body_work_too(fake: FakeSlack) -> None:
    # api_call(params=...) sends a form body, where blocks travel as a JSON string.
    client = WebClient(base_url=fake.base_url)
    response = client.api_call(
        "chat.postMessage",
        params={
            "token": "xoxb-test",
            "channel": "C0001",
            "text": "t",
            "blocks": '[{"type":"divider"}]',
        },
    )
    assert response["ok"] is True
    assert fake.messages("C0001")[0]["blocks"] == [{"type": "divider"}]


def test_update_changes_text_and_keeps_blocks(fake: FakeSlack) -> None:
    client = fake.client()
    ts = client.chat_postMessage(channel="C0001", text="v1", blocks=[{"type": "divider"}])["ts"]
    response = client.chat_update(channel="C0001", ts=ts, text="v2")
    assert response["text"] == "v2"
    stored = fake.message("C0001", ts)
    assert stored["text"] == "v2" and stored["blocks"] == [{"type": "divider"}]
    assert stored["edited"]["user"] == "U0BOT"
    assert (
        _error(lambda: client.chat_update(channel="C0001", ts="1.2", text="x"))
        == "message_not_found"
    )
    human = fake.add_message("C0001", "mine", "U0001")
    assert (
        _error(lambda: client.chat_update(channel="C0001", ts=human, text="x"))
        == "cant_update_message"
    )


def test_history_newest_first_with_bounds_metadata_and_cursor(fake: FakeSlack) -> None:
    client = fake.client()
    posted = [
        client.chat_postMessage(
            channel="C0001",
            text=f"m{i}",
            metadata={"event_type": "paper_posted", "event_payload": {"i": i}},
        )["ts"]
        for i in range(5)
    ]
    client.chat_postMessage(channel="C0001", text="reply", thread_ts=posted[0])
    plain = client.conversations_history(channel="C0001")
    assert [m["text"] for m in plain["messages"]] == ["m4", "m3", "m2", "m1", "m0"]
    assert all("metadata" not in m for m in plain["messages"])

    bounded = client.conversations_history(
        channel="C0001", oldest=posted[1], latest=posted[4], include_all_metadata=True
    )
    assert [m["metadata"]["event_payload"]["i"] for m in bounded["messages"]] == [3, 2]
    inclusive = client.conversations_history(channel="C0001", oldest=posted[1], inclusive=True)
    assert len(inclusive["messages"]) == 4

    page1 = client.conversations_history(channel="C0001", limit=2)
    assert page1["has_more"] is True
    texts = [
        m["text"]
        for page in client.conversations_history(channel="C0001", limit=2)
        for m in page["messages"]
    ]
    assert texts == ["m4", "m3", "m2", "m1", "m0"]
    assert (
        _error(lambda: client.conversations_history(channel="C0001", cursor="junk"))
        == "invalid_cursor"
    )


def test_replies_permalink_and_reactions(fake: FakeSlack) -> None:
    client = fake.client()
    parent = client.chat_postMessage(channel="C0001", text="paper")["ts"]
    reply = fake.add_message("C0001", "great read", "U0001", thread_ts=parent)
    thread = client.conversations_replies(channel="C0001", ts=parent)
    assert [m["text"] for m in thread["messages"]] == ["paper", "great read"]
    assert thread["messages"][1]["parent_user_id"] == "U0BOT"
    link = client.chat_getPermalink(channel="C0001", message_ts=parent)["permalink"]
    assert link == f"https://fake.slack.test/archives/C0001/p{parent.replace('.', '')}"
    reply_link = client.chat_getPermalink(channel="C0001", message_ts=reply)["permalink"]
    assert reply_link.endswith(f"?thread_ts={parent}&cid=C0001")
    client.reactions_add(channel="C0001", timestamp=parent, name="+1")
    assert fake.message("C0001", parent)["reactions"] == [
        {"name": "+1", "users": ["U0BOT"], "count": 1}
    ]
    assert _error(lambda: client.reactions_add(channel="C0001", timestamp=parent, name="+1")) == (
        "already_reacted"
    )


def test_users_and_conversations_info(fake: FakeSlack) -> None:
    client = fake.client()
    alice = client.users_info(user="U0001")["user"]
    assert alice["real_name"] == "Alice A" and alice["profile"]["display_name"] == "alice"
    assert alice["is_admin"] is False
    assert client.users_info(user="U0002")["user"]["is_admin"] is True
    assert _error(lambda: client.users_info(user="U404")) == "user_not_found"
    info = client.conversations_info(channel="C0001")["channel"]
    assert info["name"] == "general" and info["is_member"] is True
    assert _error(lambda: client.conversations_info(channel="C404")) == "channel_not_found"


def test_ephemeral_messages_stay_out_of_history(fake: FakeSlack) -> None:
    client = fake.client()
    response = client.chat_postEphemeral(channel="C0001", user="U0001", text="only you")
    assert response["message_ts"]
    assert fake.ephemerals("C0001")[0]["text"] == "only you"
    assert client.conversations_history(channel="C0001")["messages"] == []


def test_unknown_method(fake: FakeSlack) -> None:
    assert _error(lambda: fake.client().api_call("no.such.method")) == "unknown_method"


def test_concurrent_posts_get_unique_increasing_ts(fake: FakeSlack) -> None:
    client = fake.client()
    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(
            pool.map(lambda i: client.chat_postMessage(channel="C0001", text=str(i)), range(40))
        )
    stamps = [r["ts"] for r in results]
    assert len(set(stamps)) == 40
    assert [m["ts"] for m in fake.messages("C0001")] == sorted(stamps, key=float)


def test_replies_paginate_oldest_first(fake: FakeSlack) -> None:
    parent = fake.add_message("C0001", "paper", "U0BOT")
    for i in range(5):
        fake.add_message("C0001", f"comment {i}", "U0001", thread_ts=parent)
    client = fake.client()
    # Iterating a SlackResponse mutates and re-yields the same object: read each page as
    # it comes (list(response) would hold the last page three times).
    pages = [
        list(p["messages"])
        for p in client.conversations_replies(channel="C0001", ts=parent, limit=2)
    ]
    # Slack repeats the parent first on every page (it counts toward the limit).
    assert [[m["text"] for m in p] for p in pages] == [["paper", f"comment {i}"] for i in range(5)]
    history = client.conversations_history(channel="C0001")["messages"]
    assert [(m["text"], m["reply_count"], m["reply_users"]) for m in history] == [
        ("paper", 5, ["U0001"])
    ]
    assert _error(lambda: client.conversations_replies(channel="C0001", ts="9.9")) == (
        "thread_not_found"
    )
