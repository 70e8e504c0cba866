"""views.publish, views.open and users.conversations as the real WebClient sees them."""

from __future__ import annotations

from typing import Any

import pytest
from slack_sdk.errors import SlackApiError

from tests.fakeslack import FakeSlack
from tests.fakeslack.web_members import add_member

SECTION = {"type": "section", "text": {"type": "mrkdwn", "text": "hi"}}
INPUT = {
    "type": "input",
    "block_id": "t",
    "label": {"type": "plain_text", "text": "Time"},
    "element": {"type": "timepicker", "action_id": "t"},
}


def _modal(**changes: Any) -> dict[str, Any]:
    """A small valid modal with one input."""
    view = {
        "type": "modal",
        "callback_id": "cb",
        "blocks": [SECTION, INPUT],
        "title": {"type": "plain_text", "text": "T"},
        "submit": {"type": "plain_text", "text": "Save"},
    }
    view.update(changes)
    return view


def _error(call: Any) -> tuple[str, list[str]]:
    """The error a call answers, and Slack's explanation lines."""
    with pytest.raises(SlackApiError) as info:
        call()
    response = info.value.response
    return str(response["error"]), list(
        (response.get("response_metadata") or {}).get("messages", [])
    )


def test_publish_keeps_the_home_and_answers_the_view(fake: FakeSlack) -> None:
    answer = fake.client().views_publish(
        user_id="U0001", view={"type": "home", "blocks": [SECTION]}
    )
    view = answer["view"]
    assert answer["ok"] and view["id"].startswith("V") and view["type"] == "home"
    assert view["blocks"] == [SECTION] and view["state"] == {"values": {}}
    assert fake.ws.views.home_of("U0001") == view
    again = fake.client().views_publish(user_id="U0001", view={"type": "home", "blocks": []})
    assert fake.ws.views.home_of("U0001") == again["view"]  # the newer replaces the older


def test_publish_checks_its_arguments(fake: FakeSlack) -> None:
    client, home = fake.client(), {"type": "home", "blocks": [SECTION]}
    assert _error(lambda: client.views_publish(user_id="", view=home))[0] == "invalid_arguments"
    assert _error(lambda: client.views_publish(user_id="U0NOBODY", view=home))[0] == "not_found"
    wrong = {"type": "modal", "blocks": [SECTION]}
    assert _error(lambda: client.views_publish(user_id="U0001", view=wrong))[0] == (
        "invalid_arguments"
    )
    many = {"type": "home", "blocks": [SECTION] * 101}
    error, messages = _error(lambda: client.views_publish(user_id="U0001", view=many))
    assert error == "invalid_blocks" and "no more than 100 items" in messages[0]
    client.views_publish(user_id="U0001", view={"type": "home", "blocks": [SECTION] * 100})
    long_text = {
        "type": "home",
        "blocks": [{"type": "section", "text": {"type": "mrkdwn", "text": "x" * 3001}}],
    }
    assert _error(lambda: client.views_publish(user_id="U0001", view=long_text))[0] == (
        "invalid_blocks"
    )
    assert fake.ws.views.home_of("U0001") is not None
    assert len(fake.ws.views.published) == 1  # refused calls kept nothing


def test_open_needs_a_trigger_it_issued_and_takes_it_once(fake: FakeSlack) -> None:
    client = fake.client()
    assert _error(lambda: client.views_open(trigger_id="", view=_modal()))[0] == "invalid_arguments"
    assert _error(lambda: client.views_open(trigger_id="1.2.3", view=_modal()))[0] == (
        "invalid_trigger_id"
    )
    with fake.ws.lock:
        trigger = fake.ws.views.issue_trigger("U0001")
    view = client.views_open(trigger_id=trigger, view=_modal())["view"]
    assert view["id"].startswith("V") and view["callback_id"] == "cb"
    assert fake.ws.views.opened == [("U0001", view)]
    assert _error(lambda: client.views_open(trigger_id=trigger, view=_modal()))[0] == (
        "exchanged_trigger_id"
    )


def test_open_checks_the_modal(fake: FakeSlack) -> None:
    client = fake.client()
    with fake.ws.lock:
        trigger = fake.ws.views.issue_trigger("U0001")
    long_title = _modal(title={"type": "plain_text", "text": "x" * 25})
    error, messages = _error(lambda: client.views_open(trigger_id=trigger, view=long_title))
    assert error == "invalid_arguments" and "less than 25 characters" in messages[0]
    no_submit = _modal()
    del no_submit["submit"]
    assert _error(lambda: client.views_open(trigger_id=trigger, view=no_submit))[0] == (
        "invalid_arguments"
    )
    home = {"type": "home", "blocks": [SECTION]}
    assert _error(lambda: client.views_open(trigger_id=trigger, view=home))[0] == (
        "invalid_arguments"
    )
    client.views_open(trigger_id=trigger, view=_modal())  # a refused call used up no trigger


def test_users_conversations_lists_a_persons_channels(fake: FakeSlack) -> None:
    fake.add_channel("C0002", "random")
    fake.add_channel("C0003", "secret", is_private=True)
    fake.add_channel("C0004", "hidden", member=False, is_private=True)
    for channel in ("C0001", "C0003", "C0004"):
        add_member(fake.ws, channel, "U0001")
    client = fake.client()
    mine = client.users_conversations(user="U0001", types="public_channel,private_channel")
    assert [c["id"] for c in mine["channels"]] == ["C0001", "C0003"]  # C0004: the bot is not in
    public = client.users_conversations(user="U0001")
    assert [c["id"] for c in public["channels"]] == ["C0001"]
    first = client.users_conversations(
        user="U0001", types="public_channel,private_channel", limit=1
    )
    cursor = first["response_metadata"]["next_cursor"]
    rest = client.users_conversations(
        user="U0001", types="public_channel,private_channel", limit=1, cursor=cursor
    )
    assert [c["id"] for c in first["channels"] + rest["channels"]] == ["C0001", "C0003"]
    assert rest["response_metadata"]["next_cursor"] == ""
    assert _error(lambda: client.users_conversations(user="U0NOBODY"))[0] == "user_not_found"
