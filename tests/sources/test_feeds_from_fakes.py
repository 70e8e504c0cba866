"""The reading layer against the fakes' feeds, fetched over real HTTP: what arXiv's listing
for two watched categories announces comes out as candidates once each, with its kind; a
bioRxiv-style RSS 1.0 feed and a Crossref journal page read the same way."""

from __future__ import annotations

import urllib.request
from datetime import UTC, date, datetime

from bot.sources.crossref import read_crossref
from bot.sources.feeds import read_feed
from tests.fakesources import Announcement, CrossrefWork, FakeArxiv, FakeCrossref

MONDAY = date(2024, 9, 2)


def _body(url: str) -> bytes:
    """What a GET of `url` answers."""
    request = urllib.request.Request(url, headers={"User-Agent": "paperclub-test/1"})
    with urllib.request.urlopen(request, timeout=5) as response:
        return bytes(response.read())


def test_an_arxiv_listing_of_two_categories_reads_once_each_with_its_kind() -> None:
    with FakeArxiv(today=MONDAY) as arxiv:
        arxiv.calendar.announce(
            day=MONDAY,
            papers=[
                Announcement(
                    arxiv_id="2409.00001",
                    title="Pipeline bubbles, <b>measured</b>",
                    abstract="We measure <i>them</i> @channel 🧪.",
                    authors=("Ada Lovelace", "Alan Turing"),
                    categories=("cs.LG", "cs.DC"),  # listed in both watched categories
                ),
                Announcement(
                    arxiv_id="2401.00002",
                    title="Revised",
                    abstract="v3.",
                    authors=("Grace Hopper",),
                    categories=("cs.DC",),
                    version=3,
                    replacement=True,
                ),
                Announcement(
                    arxiv_id="2409.00003",
                    title="Cross-listed",
                    abstract="From statistics.",
                    authors=("Emmy Noether",),
                    categories=("stat.ML", "cs.LG"),
                ),
            ],
        )
        for url in (arxiv.rss_url("cs.LG", "cs.DC"), arxiv.atom_url("cs.LG", "cs.DC")):
            read = read_feed(data=_body(url), source=url)
            assert read.problems == ()
            kinds = {c.arxiv_id: (c.announce, c.version) for c in read.candidates}
            assert kinds == {
                "2409.00001": ("new", 1),
                "2401.00002": ("replace", 3),
                "2409.00003": ("cross", 1),
            }
            first = next(c for c in read.candidates if c.arxiv_id == "2409.00001")
            assert first.title == "Pipeline bubbles, measured"
            assert first.authors == ("Ada Lovelace", "Alan Turing")


def test_a_crossref_journal_page_reads_into_candidates() -> None:
    with FakeCrossref() as crossref:
        crossref.add(
            CrossrefWork(
                doi="10.1371/journal.pone.0000001",
                title="Wombat burrows",
                authors=("Ada Lovelace",),
                issn="1932-6203",
                published=date(2024, 9, 1),
                indexed=datetime(2024, 9, 2, tzinfo=UTC),
            )
        )
        read = read_crossref(data=_body(crossref.journal_url("1932-6203")), source="crossref")
    assert [(c.doi, c.title) for c in read.candidates] == [
        ("10.1371/journal.pone.0000001", "Wombat burrows")
    ]
