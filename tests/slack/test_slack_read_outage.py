"""Issue 30: with the archive unreachable (its file gone, tests/archive_gone.py), the App Home,
its buttons, the schedule form and "More results" answer in words, never with Bolt's 500 or a
logged traceback (Socket Mode and HTTP); once it is back, each works as before."""

from __future__ import annotations

import http.client
import json
import time as clock
from collections.abc import Iterator
from datetime import time
from http import HTTPStatus
from typing import Any

import pytest

from bot.domain import PaperDraft
from bot.messages import as_plain
from bot.services import importing
from bot.slack.http import send
from bot.wording import home as home_words
from bot.wording import replies
from tests.archive_gone import archive_gone
from tests.fakeslack import (
    event_body,
    event_envelope_payload,
    interactive_body,
    message_event,
    signed_headers,
)
from tests.fakeslack.payloads import view_submission_payload
from tests.fakeslack.web_members import add_member
from tests.slack.conftest import ADMIN, CHANNEL, MEMBER, MONDAY_9, SECRET, Harness
from tests.slack.test_app_home import (
    _channel,
    _deliver,
    _open_form,
    _values,
    open_home,
    press_and_wait,
    texts,
)
from tests.slack.test_search_command import _search

UNAVAILABLE = as_plain(message=home_words.UNAVAILABLE)


@pytest.fixture
def tracebacks(caplog: pytest.LogCaptureFixture) -> Iterator[pytest.LogCaptureFixture]:
    """The log of the test, checked at its end for any record carrying a traceback."""
    yield caplog
    assert not [r for r in caplog.records if r.exc_info], [r.getMessage() for r in caplog.records]


def _resubmit(harness: Harness, payload: dict[str, Any]) -> dict[str, Any]:
    """Deliver an interaction once more, as Slack sends a person's second try: over HTTP
    signed a second later (the same body and stamp would be a replay, refused)."""
    if harness.mode == "socket":
        return _deliver(harness, payload)
    status, body = harness.post(interactive_body(payload), timestamp=int(clock.time()) + 1)
    assert status == 200
    return dict(json.loads(body)) if body.strip() else {}


def test_the_home_opened_while_the_archive_is_gone_says_so(
    harness: Harness, tracebacks: pytest.LogCaptureFixture
) -> None:
    add_member(harness.fake.ws, CHANNEL, MEMBER)
    with archive_gone(harness.bot.database):
        shown = texts(open_home(harness, MEMBER))
    assert UNAVAILABLE in shown
    back = texts(open_home(harness, MEMBER))
    assert UNAVAILABLE not in back and "<#C0001>" in back


def test_home_buttons_while_the_archive_is_gone_change_nothing_and_say_so(
    harness: Harness, tracebacks: pytest.LogCaptureFixture
) -> None:
    add_member(harness.fake.ws, CHANNEL, ADMIN)
    with archive_gone(harness.bot.database):
        for action in ("home_schedule", "home_pause"):
            assert UNAVAILABLE in texts(press_and_wait(harness, action, user=ADMIN)), action
    assert not harness.fake.ws.views.opened  # no form opened on an archive it cannot read
    assert not _channel(harness).paused
    assert "paused" in texts(press_and_wait(harness, "home_pause", user=ADMIN))  # back


def test_a_schedule_form_sent_while_the_archive_is_gone_stays_open_and_says_not_saved(
    harness: Harness, tracebacks: pytest.LogCaptureFixture
) -> None:
    add_member(harness.fake.ws, CHANNEL, ADMIN)
    view = _open_form(harness, ADMIN)
    values = _values(at="10:30", zone="America/New_York", days=["mon", "wed"])
    submitted = view_submission_payload(view=view, user_id=ADMIN, values=values)
    with archive_gone(harness.bot.database):
        answer = _deliver(harness, submitted)
    assert answer["response_action"] == "errors"
    [(block, said)] = answer["errors"].items()
    assert said == as_plain(message=replies.NOT_SAVED)
    assert block in {b["block_id"] for b in view["blocks"] if b["type"] == "input"}
    assert _channel(harness).schedule.post_time == time(9, 0)  # nothing changed
    # Sent again with the archive back (a new request: a later signature), it is applied.
    assert "response_action" not in _resubmit(harness, submitted)
    assert harness.fake.ws.wait_for(
        lambda: _channel(harness).schedule.post_time == time(10, 30), 10
    )


def test_more_results_while_the_archive_is_gone_says_not_available(
    harness: Harness, tracebacks: pytest.LogCaptureFixture
) -> None:
    drafts = [
        PaperDraft(title=f"Wombat study {n}", abstract=f"Wombats number {n}.", origin=f"t:{n}")
        for n in range(8)
    ]
    importing.import_drafts(uow=harness.bot.database, drafts=drafts, now=MONDAY_9)
    [button] = _search(harness, "search wombat")["blocks"][-1]["elements"]
    with archive_gone(harness.bot.database):
        said = harness.more_results(value=button["value"])
    assert said["response_type"] == "ephemeral" and said.get("replace_original") is False
    assert said["text"] == as_plain(message=replies.NOT_AVAILABLE)
    page_two = harness.more_results(value=button["value"])  # back: the same button works
    assert "*Results 6–8 of 8*" in page_two["blocks"][0]["text"]["text"]


def test_an_event_refused_during_the_outage_is_a_503_with_its_own_phrase(
    harness: Harness,
) -> None:
    """HTTP mode: Slack reads the status; people and proxies read the phrase beside it."""
    if harness.mode != "http":
        pytest.skip("Socket Mode answers no HTTP request")
    ts, _ = harness.daily_post()
    reply = message_event(channel=CHANNEL, user=MEMBER, text="said while it was down", thread_ts=ts)
    body = event_body(event_envelope_payload(reply))
    headers = signed_headers(
        SECRET, body.body, content_type=body.content_type, headers=body.headers
    )
    connection = http.client.HTTPConnection("127.0.0.1", harness.settings.http_port, timeout=10)
    try:
        with archive_gone(harness.bot.database):
            connection.request("POST", "/slack/events", body.body, headers)
            answer = connection.getresponse()
            answer.read()
    finally:
        connection.close()
    assert (answer.status, answer.reason) == (503, "Service Unavailable")


@pytest.mark.parametrize("status", [200, 302, 400, 401, 404, 405, 413, 500, 503, 429, 418])
def test_every_status_sent_has_its_phrase(status: int) -> None:
    started: list[str] = []
    send(lambda line, headers: started.append(line), status, "")
    code, _, phrase = started[0].partition(" ")
    assert int(code) == status and phrase not in ("", "Error", "Unknown")
    expected = "Payload Too Large" if status == 413 else HTTPStatus(status).phrase
    assert phrase == expected
