"""While the bot runs on Slack, a channel's next paper is looked up just before it is posted:
the daily post shows the real title and the whole abstract, not the list's cut text."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from bot.services import posting
from tests.fakelookup import FakeScholar
from tests.fakelookup.reading_list import CATALOGUE
from tests.fakeslack import FakeSlack
from tests.services.conftest import load_sample
from tests.slack.conftest import CHANNEL, KEY, SlackBot, shown_mrkdwn


@pytest.fixture
def scholar() -> Iterator[FakeScholar]:
    """The fake arXiv and Crossref, knowing the shipped list's papers."""
    with FakeScholar(records=list(CATALOGUE)) as fake:
        yield fake


def test_the_sweep_posts_the_enriched_paper(
    fake: FakeSlack, make_bot: Callable[..., SlackBot], scholar: FakeScholar
) -> None:
    bot = make_bot(arxiv_api_url=scholar.arxiv_url, crossref_api_url=scholar.crossref_url)
    load_sample(bot.database)
    bot.wiring.workers.enricher.start()  # as Wiring.start() does, without the scheduler
    results = bot.wiring.sweep()
    assert results[KEY].outcome is posting.Outcome.POSTED
    [post] = [m for m in fake.messages(CHANNEL) if m.get("metadata")]
    shown = " ".join(shown_mrkdwn(post).split())
    quill = CATALOGUE[1]  # the list's first paper after its header
    assert " ".join(quill.title.split()[:3]) in shown
    assert "title taken from the abstract" not in shown
    assert scholar.count("arxiv") >= 1
