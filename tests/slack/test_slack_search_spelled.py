"""Did you mean on Slack, over Socket Mode and HTTP: a misspelt search runs corrected and says
so; one that finds little carries a 'Did you mean' button whose click runs the corrected
search; hostile text around a misspelling pings no one."""

from __future__ import annotations

from typing import Any

from bot.slack import ids
from bot.wording import archive
from tests.fakeslack import block_actions_payload, interactive_body
from tests.slack.conftest import MEMBER, Harness, shown_mrkdwn


def _search(harness: Harness, text: str) -> dict[str, Any]:
    """Run a search as a member; the whole body it answered through response_url."""
    harness.command(text, user=MEMBER)
    return harness.fake.responses()[-1]


def _click(harness: Harness, *, action_id: str, value: str) -> dict[str, Any]:
    """Click a button of a search page as this mode delivers it; the answer."""
    url = harness.fake.new_response_url()
    payload = block_actions_payload(
        action_id, value, user_id=MEMBER, message_ts="1.0", response_url=url
    )
    if harness.mode == "socket":
        harness.fake.wait_ack(harness.fake.push("interactive", payload))
    else:
        assert harness.post(interactive_body(payload))[0] == 200
    return harness.fake.wait_response(url, timeout=10)


def test_a_misspelt_search_runs_corrected(harness: Harness) -> None:
    body = _search(harness, "search pipline paralelism")
    head = body["blocks"][0]["text"]["text"]
    assert "Showing results for “*pipeline parallelism*” (no match for “pipline" in head
    assert "*Results 1–" in shown_mrkdwn(body)


def test_did_you_mean_is_a_button_that_runs_the_corrected_search(harness: Harness) -> None:
    body = _search(harness, "homology pipline")  # bare text searches too
    buttons = body["blocks"][-1]["elements"]
    [spelled] = [
        b for b in buttons if b["action_id"] == ids.action_id(action=archive.SEARCH_SPELLED)
    ]
    assert spelled["text"]["text"] == "Did you mean “homology pipeline”?"
    answer = _click(harness, action_id=spelled["action_id"], value=spelled["value"])
    assert "for “homology pipeline”" in shown_mrkdwn(answer)


def test_hostile_text_around_a_misspelling_pings_no_one(harness: Harness) -> None:
    body = _search(harness, "search <!channel> <@U999> pipline @here")
    said = shown_mrkdwn(body) + str(body.get("text", ""))
    assert "pipeline" in said
    assert "<!channel>" not in said and "<@U999>" not in said and "<!here>" not in said
