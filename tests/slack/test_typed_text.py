"""Text from Slack is stored as the person typed it: Slack's entities and <…> tokens are undone
once, at the edge, and what is shown back is exactly that text, inert."""

from __future__ import annotations

import pytest

from bot.services import listing
from bot.slack.text import typed
from tests.slack.conftest import KEY, MEMBER, Harness


@pytest.mark.parametrize(
    ("sent", "meant"),
    [
        ("Attention &amp; &lt;Memory&gt;", "Attention & <Memory>"),
        ("&amp;lt; stays", "&lt; stays"),
        ("<https://example.org/x>", "https://example.org/x"),
        ("<https://example.org/x|example.org/x>", "https://example.org/x"),
        ("<https://example.org/x|the paper>", "the paper (https://example.org/x)"),
        ("<mailto:a@b.org|a@b.org>", "a@b.org"),
        ("in:<#C0123|general>", "in:#C0123"),
        ("ask <@U0ANA|ana> or <@U0BO>", "ask @ana or @U0BO"),
        ("<!channel> <!here> <!subteam^S1|@readers> <!subteam^S2>", "@channel @here @readers @S2"),
        ("&lt;!channel&gt; typed", "<!channel> typed"),
    ],
)
def test_typed_undoes_slacks_encoding_once(sent: str, meant: str) -> None:
    assert typed(sent) == meant


def test_an_added_title_is_stored_and_shown_as_typed(harness: Harness) -> None:
    # Slack escapes & < > in command text: this is `/paperclub add Attention & <Memory>`.
    reply = harness.command("add Attention &amp; &lt;Memory&gt;", user=MEMBER)
    assert "Added “*Attention &amp; &lt;Memory&gt;*”" in reply  # mrkdwn for "Attention & <Memory>"
    [paper] = [
        r.paper
        for r in listing.records(uow=harness.bot.database, workspace=KEY.workspace_key)
        if "Memory" in r.paper.title
    ]
    assert paper.title == "Attention & <Memory>"
    again = harness.command("add Attention &amp; &lt;Memory&gt;", user=MEMBER)
    assert "already in the queue" in again and "Attention &amp; &lt;Memory&gt;" in again
