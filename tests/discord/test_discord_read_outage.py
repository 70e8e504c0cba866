"""Issue 30 on Discord: a search page's "More results" clicked while the archive is unreachable
(its file gone, tests/archive_gone.py) is answered to the clicker alone, in the words Slack
uses, the page left as it was and no traceback logged; once it is back, the button works."""

from __future__ import annotations

import pytest

from bot.discord.render import render
from bot.wording import replies
from tests.archive_gone import archive_gone
from tests.discord.conftest import DiscordHarness

EPHEMERAL = 1 << 6
WAIT = 10.0


def test_more_results_while_the_archive_is_gone_says_not_available(
    harness: DiscordHarness, caplog: pytest.LogCaptureFixture
) -> None:
    fake = harness.fake
    first = harness.command("search", {"query": "training"})
    [more] = first["components"][0]["components"]
    with archive_gone(harness.database):
        click = fake.click(first["id"], more["custom_id"])
        fake.wait_until(
            lambda: bool(fake.state.interactions.lookup(interaction_id=click.id).followup_ids),
            timeout=WAIT,
        )
    [said_id] = fake.interaction(click.id).followup_ids
    said = fake.message(said_id)
    assert said["flags"] & EPHEMERAL
    assert said["content"] == render(message=replies.NOT_AVAILABLE)
    assert fake.message(first["id"])["content"] == first["content"]  # the page stays
    assert not [r for r in caplog.records if r.exc_info], caplog.text
    page = harness.answer(fake.click(first["id"], more["custom_id"]).id)  # back
    assert "Results 6–" in page["content"]
