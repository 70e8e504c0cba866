"""A watch as an admin types it: read into a spec, said back the same way, and where each kind
of source is read."""

from __future__ import annotations

from datetime import date

import pytest

from bot.ports.sources import WatchSpec
from bot.sources.watch_text import SourceBases, WatchTextError, read_watch, source_url, watch_text

BASES = SourceBases(arxiv_feed="http://127.0.0.1:9/", crossref="http://127.0.0.1:8")


def test_an_arxiv_watch_with_keywords_and_authors() -> None:
    spec = read_watch(
        text="arxiv cs.LG q-bio.NC cs.LG keywords: speculative  decoding, Pipeline, pipeline "
        "authors: Ada Lovelace, G. Hopper"
    )
    assert spec == WatchSpec(
        kind="arxiv",
        target="cs.LG+q-bio.NC",
        keywords=("speculative decoding", "Pipeline"),
        authors=("Ada Lovelace", "G. Hopper"),
    )
    assert read_watch(text=watch_text(spec=spec)) == spec
    assert source_url(spec=spec, bases=BASES, since=date(2024, 9, 2)) == (
        "http://127.0.0.1:9/rss/cs.LG+q-bio.NC"
    )


def test_a_feed_and_a_journal() -> None:
    feed = read_watch(text="FEED <https://example.org/toc.xml?a=1&b=2> keywords: sleep")
    assert feed == WatchSpec(
        kind="feed", target="https://example.org/toc.xml?a=1&b=2", keywords=("sleep",)
    )
    assert source_url(spec=feed, bases=BASES, since=date(2024, 1, 1)) == feed.target
    journal = read_watch(text="crossref 0028-0836")
    assert journal.target == "0028-0836"
    assert read_watch(text="crossref 00280836").target == "0028-0836"
    url = source_url(spec=journal, bases=BASES, since=date(2024, 9, 2))
    assert url.startswith("http://127.0.0.1:8/journals/0028-0836/works?")
    assert "filter=from-created-date%3A2024-09-02" in url and "rows=1000" in url


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("", "start with arxiv, feed or crossref"),
        ("rss https://x.org", "start with arxiv, feed or crossref"),
        ("arxiv", "name at least one arXiv category"),
        ("arxiv cs.LG <!channel>", "is not an arXiv category"),
        ("arxiv " + " ".join(f"cs.A{chr(65 + i)}" for i in range(11)), "at most 10 categories"),
        ("feed javascript:alert(1)", "starts with https://"),
        ("feed https://a.org https://b.org", "give one feed address"),
        ("crossref 0028-0837", "is not an ISSN"),
        ("arxiv cs.LG keywords: " + "x" * 101, "at most 100 characters"),
        ("arxiv cs.LG keywords: " + ",".join(f"k{i}" for i in range(21)), "at most 20 keywords"),
    ],
)
def test_what_cannot_be_a_watch_is_said_plainly(typed: str, said: str) -> None:
    with pytest.raises(WatchTextError, match=said):
        read_watch(text=typed)


def test_hostile_keywords_are_kept_as_typed_text() -> None:
    spec = read_watch(text="arxiv cs.CL keywords: @everyone, <@U123>, 🧪 chemistry")
    assert spec.keywords == ("@everyone", "<@U123>", "🧪 chemistry")
