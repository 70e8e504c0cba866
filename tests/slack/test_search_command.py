"""/paperclub search over Socket Mode and HTTP: hits, comment snippets, paging, no hits."""

from __future__ import annotations

import json
from typing import Any

from bot.domain import PaperDraft
from bot.services import importing
from bot.slack import ids
from tests.fakeslack import message_event
from tests.slack.conftest import CHANNEL, MEMBER, MONDAY_9, Harness, shown_mrkdwn


def _search(harness: Harness, text: str) -> dict[str, Any]:
    """Run a search as a member; the whole body it answered through response_url."""
    harness.command(text, user=MEMBER)
    return harness.fake.responses()[-1]


def test_search_finds_papers_and_what_was_said(harness: Harness) -> None:
    harness.sweep()
    [post] = harness.posts()
    harness.event(
        message_event(
            channel=CHANNEL,
            user="U0ANA",
            text="the pipeline bubbles hurt",
            thread_ts=str(post["ts"]),
        )
    )
    body = _search(harness, "search persistent homology")
    assert "*Results 1–1 of 1*" in body["blocks"][0]["text"]["text"]
    hit = shown_mrkdwn(body)
    assert "*homology*" in hit.lower() and "👍 0 · 👎 0 · 💬 0" in hit
    said = shown_mrkdwn(_search(harness, "bubbles"))  # bare text searches too
    # The person is named (the fake has no profile for U0ANA: the id), never mentioned.
    assert "“U0ANA: the pipeline *bubbles* hurt”" in said and "<@" not in said
    assert f"<#{CHANNEL}>" in said
    none = _search(harness, "search zzzqqqx")
    assert "No papers or comments match" in none["blocks"][0]["text"]["text"]


def test_more_results_pages_through(harness: Harness) -> None:
    drafts = [
        PaperDraft(title=f"Wombat study {n}", abstract=f"Wombats number {n}.", origin=f"t:{n}")
        for n in range(12)
    ]
    importing.import_drafts(uow=harness.bot.database, drafts=drafts, now=MONDAY_9)
    body = _search(harness, "search wombat")
    assert "*Results 1–5 of 12*" in body["blocks"][0]["text"]["text"]
    [button] = body["blocks"][-1]["elements"]
    assert button["action_id"] == ids.SEARCH_MORE
    page_two = harness.more_results(value=button["value"])
    assert page_two.get("replace_original") is True
    assert "*Results 6–10 of 12*" in page_two["blocks"][0]["text"]["text"]
    assert json.loads(page_two["blocks"][-1]["elements"][0]["value"])["o"] == 10


def test_hostile_queries_get_answers(harness: Harness) -> None:
    for text in ['"', "(", "title:x OR", "NEAR(a b", "*", "^x", "🚀🚀", "x" * 3000, "payload"]:
        body = _search(harness, f"search {text}")
        assert body["blocks"], text
