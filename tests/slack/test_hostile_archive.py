"""A hostile archive through the Slack messages the bot sends (daily post, yesterday's line,
weekly recap, queue, top, skip, add, search and its next page, help, admin replies, errors),
asserted on what the fake Slack received: nothing pings, no link leads to evil.example or
hides its target, and every title a person wrote is still shown."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest

from bot.services import recap
from tests.fakeslack import message_event
from tests.hostile.archive import COMMENT, TITLES, import_hostile
from tests.hostile.slack_view import (
    blocks_view,
    disguised,
    links_to,
    payload_pings,
    shows,
)
from tests.slack.conftest import CHANNEL, MEMBER, MONDAY_9, Harness


def slack_escaped(text: str) -> str:
    """How Slack sends text a person typed: & < > as entities."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


@pytest.fixture
def hostile(sqlite_url: str) -> None:
    """Hostile papers first in the queue (the harness imports the sample after them)."""
    import_hostile(url=sqlite_url, now=MONDAY_9)


def _sent(harness: Harness) -> list[dict[str, Any]]:
    """Every message payload the bot sent: posts, redraws, response_url answers."""
    calls = harness.fake.calls("chat.postMessage") + harness.fake.calls("chat.update")
    return [*calls, *harness.fake.responses()]


def _view(payload: dict[str, Any]) -> Any:
    """What a reader sees of one payload."""
    blocks = payload.get("blocks") or []
    if isinstance(blocks, str):
        blocks = json.loads(blocks)
    return blocks_view(blocks=blocks, text=payload.get("text"))


def test_nothing_pings_nothing_hides_and_everything_shows(hostile: None, harness: Harness) -> None:
    harness.sweep()
    [post] = harness.posts()
    harness.event(
        message_event(
            channel=CHANNEL, user=MEMBER, text=slack_escaped(COMMENT), thread_ts=str(post["ts"])
        )
    )
    harness.clock.at = MONDAY_9 + timedelta(days=1)
    harness.sweep()  # yesterday's line carries the hostile title
    typed_add = "https://example.org/x <!channel> <https://evil.example/login|Read the thread>"
    for text in (
        "help",
        "queue",
        "top week",
        "skip",
        f"add {slack_escaped(typed_add)}",
        "schedule 09:00 &lt;!channel&gt;",
        "pause",
        "resume",
        "frobnicate &lt;!here&gt;",
        "recap fri 16:00",
        "search quokka",
    ):
        harness.command(text)
    friday = MONDAY_9 + timedelta(days=4, hours=7)
    assert recap.send_due_recaps(poster=harness.bot.poster, now=friday) == 1
    body = harness.fake.responses()
    harness.command("search wombat", user=MEMBER)
    page = harness.fake.responses()[-1]
    [button] = page["blocks"][-1]["elements"]
    harness.more_results(value=button["value"])

    sent = _sent(harness)
    # Eleven commands and two search pages answered; two daily posts and the weekly recap.
    assert len(harness.fake.responses()) == len(body) + 2 == 13
    assert len(harness.fake.calls("chat.postMessage")) >= 3
    for payload in sent:
        seen = _view(payload)
        assert payload_pings(payload=payload) == [], seen.text
        assert disguised(view=seen) == []
        # A typed URL may be auto-linked, showing itself; never under another label.
        labelled = [link for link in links_to(view=seen, host="evil.example") if link.label]
        assert labelled == [], seen.text
    visible = [_view(p).text for p in sent]
    # The first title: in its daily post, in yesterday's line, the weekly recap and search.
    assert sum(shows(typed=TITLES[0], visible=v) for v in visible) >= 4
    assert any(shows(typed=TITLES[6], visible=v) for v in visible)  # the second search page
    assert any(shows(typed=COMMENT, visible=v) for v in visible)  # the comment, in search
    assert any(shows(typed=typed_add.split(" ", 1)[1], visible=v) for v in visible)  # add
