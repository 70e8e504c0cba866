"""Issue 33's nominations by modal on Slack, over Socket Mode and HTTP: the poll's "Nominate a
paper" button opens a modal (views.open) for whoever clicked; a submitted one runs the same
path as /paperclub nominate and the person alone reads the answer (chat.postEphemeral); a
paper that names nothing, or is far too long, is told beside the field; hostile text is
inert."""

from __future__ import annotations

import json
from typing import Any

from bot.services.poll_commands import REFERENCE_MAX
from bot.slack import ids
from tests.fakeslack import block_actions_payload, interactive_body
from tests.fakeslack.payloads import view_submission_payload
from tests.fakeslack.web_members import add_member
from tests.hostile.slack_view import blocks_view, payload_pings, shows
from tests.slack.conftest import ADMIN, CHANNEL, MEMBER, Harness, shown_mrkdwn

NOMINATE = ids.action_id(action="poll_nominate")
HOSTILE = "<!channel> <@U0ADMIN> *bold* <https://evil.test|click me> & :tada: 🎉 Tensors"


def _deliver(harness: Harness, payload: dict[str, Any]) -> dict[str, Any]:
    """Deliver an interaction as this mode does; the ack's payload (empty when none)."""
    if harness.mode == "socket":
        ack = harness.fake.wait_ack(harness.fake.push("interactive", payload))
        return dict(ack.get("payload") or {})
    status, body = harness.post(interactive_body(payload))
    assert status == 200
    return dict(json.loads(body)) if body.strip() else {}


def _poll(harness: Harness) -> dict[str, Any]:
    """A Wednesday meeting with polls; the poll the Monday-morning sweep opened."""
    assert "The meeting" in harness.command("meeting set wed 16:00 UTC")
    assert "Polls" in harness.command("meeting poll approval")
    harness.bot.wiring.sweep()
    [poll] = [m for m in harness.fake.messages(CHANNEL) if NOMINATE in json.dumps(m)]
    return poll


def _press(harness: Harness, poll: dict[str, Any], *, user: str) -> dict[str, Any]:
    """Click the poll's "Nominate a paper" as `user`; the modal the bot opened for them."""
    ws = harness.fake.ws
    [button] = [
        e
        for b in poll["blocks"]
        if b["type"] == "actions"
        for e in b["elements"]
        if e["action_id"] == NOMINATE
    ]
    payload = block_actions_payload(
        NOMINATE, button["value"], user_id=user, message_ts=poll["ts"], channel_id=CHANNEL
    )
    with ws.lock:
        payload["trigger_id"] = ws.views.issue_trigger(user)
    before = len(ws.views.opened)
    _deliver(harness, payload)
    assert ws.wait_for(lambda: len(ws.views.opened) > before, 10), "no modal opened"
    with ws.lock:
        who, view = ws.views.opened[-1]
    assert who == user
    return view


def _submit(harness: Harness, view: dict[str, Any], *, user: str, paper: str) -> dict[str, Any]:
    """Submit the form with `paper` typed; the ack's payload."""
    values = {
        ids.NOMINATE_PAPER: {ids.NOMINATE_PAPER: {"type": "plain_text_input", "value": paper}}
    }
    return _deliver(harness, view_submission_payload(view=view, user_id=user, values=values))


def _told(harness: Harness, *, user: str, count: int) -> dict[str, Any]:
    """The `count`-th ephemeral answer the person got in the channel (waits for it)."""
    fake = harness.fake

    def theirs() -> list[dict[str, Any]]:
        return [m for m in fake.ephemerals(CHANNEL) if m["user"] == user]

    assert fake.ws.wait_for(lambda: len(theirs()) >= count, 10), "no answer"
    return theirs()[count - 1]


def test_the_button_opens_a_form_whose_paper_is_nominated(harness: Harness) -> None:
    add_member(harness.fake.ws, CHANNEL, MEMBER)
    poll = _poll(harness)
    view = _press(harness, poll, user=MEMBER)
    assert view["callback_id"] == ids.NOMINATE_VIEW and view["private_metadata"] == CHANNEL
    [block] = view["blocks"]
    assert block["element"]["max_length"] == REFERENCE_MAX
    assert "response_action" not in _submit(
        harness, view, user=MEMBER, paper="Attention Is All You Need"
    )
    said = shown_mrkdwn(_told(harness, user=MEMBER, count=1))
    assert "Attention Is All You Need" in said and "is put forward for the next poll" in said
    again = harness.command("nominate Attention Is All You Need", user=ADMIN)
    assert "was put forward already" in again  # the same path as the slash command


def test_what_names_nothing_is_told_in_the_form_and_hostile_text_is_inert(
    harness: Harness,
) -> None:
    add_member(harness.fake.ws, CHANNEL, MEMBER)
    poll = _poll(harness)
    view = _press(harness, poll, user=MEMBER)
    for paper in ("(( ))", "x" * 10_000):
        answer = _submit(harness, view, user=MEMBER, paper=paper)
        assert answer["response_action"] == "errors"
        assert set(answer["errors"]) == {ids.NOMINATE_PAPER}
    assert not harness.fake.ephemerals(CHANNEL)  # nothing ran
    assert "response_action" not in _submit(harness, view, user=MEMBER, paper=HOSTILE)
    told = _told(harness, user=MEMBER, count=1)
    seen = blocks_view(blocks=told.get("blocks") or [], text=told.get("text"))
    assert not payload_pings(payload=told) and "is put forward" in seen.text
    # The link is read as the paper's URL, as a typed `nominate` reads it; the rest is the title.
    assert not seen.links and shows(typed="<!channel> <@U0ADMIN> *bold*", visible=seen.text)
    assert shows(typed="& :tada: 🎉 Tensors", visible=seen.text)
    forged = dict(view, private_metadata="not a channel")
    answer = _submit(harness, forged, user=MEMBER, paper="A fine title")
    assert answer["response_action"] == "errors"
