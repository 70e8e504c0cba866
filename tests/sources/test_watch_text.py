"""A watch as an admin types it: read into a spec, said back the same way, and where each kind
of source is read."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime
from urllib.parse import parse_qs, urlsplit

import pytest

from bot.messages import as_plain
from bot.ports.fetching import Body
from bot.ports.sources import Watch, WatchSpec
from bot.sources.feeds import read_feed
from bot.sources.watch_text import (
    API_RESULTS,
    SourceBases,
    WatchTextError,
    arxiv_search_query,
    read_watch,
    source_url,
    watch_text,
)
from bot.wording import sources as words
from tests.fakesources import Announcement, FakeArxiv
from tests.services.conftest import key
from tests.sources.faketime import FakeTime, fetcher_on

BASES = SourceBases(
    arxiv_feed="http://127.0.0.1:9/",
    arxiv_api="http://127.0.0.1:7/api/query",
    crossref="http://127.0.0.1:8",
)
# A search_query made only of field:"phrase" terms joined by OR: nothing typed got out.
_ONLY_PHRASES = re.compile(r'(?:ti|abs|au):"[^"()]*"(?: OR (?:ti|abs|au):"[^"()]*")*')


def search_params(url: str) -> dict[str, list[str]]:
    return parse_qs(urlsplit(url).query, keep_blank_values=True)


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
    assert "select=DOI%2Ctitle%2Cauthor%2Cabstract" in url


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("", "start with arxiv, feed or crossref"),
        ("rss https://x.org", "start with arxiv, feed or crossref"),
        ("arxiv", "name at least one arXiv category, like cs.LG, or keywords or authors"),
        ("arxiv keywords: 🧪, @@@ authors: ---", "needs keywords or authors with letters"),
        ("arxiv cs.LG <!channel>", "is not an arXiv category"),
        ("arxiv " + " ".join(f"cs.A{chr(65 + i)}" for i in range(11)), "at most 10 categories"),
        ("feed javascript:alert(1)", "starts with https://"),
        ("feed https://a.org https://b.org", "give one feed address"),
        ("feed https://a.org/\x1b[2J", "has no control characters"),
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


def test_an_arxiv_search_needs_no_categories_and_is_read_from_the_api() -> None:
    spec = read_watch(text="arxiv keywords: speculative decoding authors: Ada Lovelace")
    assert spec == WatchSpec(
        kind="arxiv", target="", keywords=("speculative decoding",), authors=("Ada Lovelace",)
    )
    assert watch_text(spec=spec) == "arxiv keywords: speculative decoding authors: Ada Lovelace"
    assert read_watch(text=watch_text(spec=spec)) == spec
    url = source_url(spec=spec, bases=BASES, since=date(2024, 9, 2))
    assert url.startswith("http://127.0.0.1:7/api/query?search_query=")
    assert search_params(url) == {
        # The author by family name: match_filters checks the initial on what comes back.
        "search_query": [
            'ti:"speculative decoding" OR abs:"speculative decoding" OR au:"lovelace"'
        ],
        "sortBy": ["submittedDate"],
        "sortOrder": ["descending"],
        "max_results": [str(API_RESULTS)],
    }
    authors_only = read_watch(text="ARXIV authors: Lovelace, Ada, G. Hopper")
    assert arxiv_search_query(spec=authors_only) == 'au:"lovelace" OR au:"ada" OR au:"hopper"'


def test_categories_with_keywords_stay_on_the_feed_and_scope_a_search_by_cat() -> None:
    spec = read_watch(text="arxiv cs.LG math.OC keywords: Pipeline")
    assert source_url(spec=spec, bases=BASES, since=date(2024, 9, 2)) == (
        "http://127.0.0.1:9/rss/cs.LG+math.OC"
    )
    assert arxiv_search_query(spec=spec) == (
        '(cat:cs.LG OR cat:math.OC) AND (ti:"pipeline" OR abs:"pipeline")'
    )
    assert arxiv_search_query(spec=read_watch(text="arxiv cs.LG")) == "cat:cs.LG"


def test_an_arxiv_search_is_said_back_as_a_search() -> None:
    spec = read_watch(text="arxiv keywords: speculative decoding authors: Ada Lovelace")
    watch = Watch(
        id=4, channel=key("C1"), spec=spec, added_by="U1", added_at=datetime(2024, 9, 2, tzinfo=UTC)
    )
    assert as_plain(message=words.added(watch=watch, new=True)).splitlines()[0] == (
        "Now watching #4 arXiv search · keywords: speculative decoding · authors: Ada Lovelace."
    )


def announced(n: int, *, title: str, authors: tuple[str, ...] = ("Ada Lovelace",)) -> Announcement:
    return Announcement(
        arxiv_id=f"2409.{n:05d}",
        title=title,
        abstract=f"Abstract {n}, nothing else.",
        authors=authors,
        categories=("cs.CL",) if n != 5 else ("cs.LG",),
    )


def test_hostile_keywords_cannot_break_or_inject_into_the_search() -> None:
    spec = read_watch(
        text='arxiv keywords: "quoted" words, x AND y, (paren, <!channel>, '
        'x" OR cat:cs.LG OR ti:"y, ) OR all:( authors: ") OR cat:(cs.LG) O\'Brien'
    )
    assert len(spec.keywords) == 6 and spec.authors == ("\") OR cat:(cs.LG) O'Brien",)
    query = arxiv_search_query(spec=spec)
    assert _ONLY_PHRASES.fullmatch(query), query
    assert "AND" not in query and "cat:" not in query and query.endswith(' OR au:"brien"')
    with FakeArxiv(today=date(2024, 9, 2)) as arxiv:
        arxiv.calendar.announce(
            day=date(2024, 9, 2),
            papers=[
                announced(1, title='A "quoted" words study'),
                announced(2, title="Why x and y differ"),
                announced(3, title="Paren matching, done right"),
                announced(4, title="Notes for <!channel> readers"),
                # What an injected cat:cs.LG or all: would bring back, and nothing else does.
                announced(5, title="A plain machine learning paper", authors=("Alan Turing",)),
                announced(6, title="Sheep genetics", authors=("Aoife O'Brien",)),
            ],
        )
        bases = SourceBases(arxiv_api=arxiv.api_url)
        url = source_url(spec=spec, bases=bases, since=date(2024, 9, 2))
        fetched = fetcher_on(FakeTime()).fetch(url=url)
        assert isinstance(fetched, Body)
        read = read_feed(data=fetched.data, source="test")
    assert read.problems == ()
    found = sorted(c.arxiv_id or "" for c in read.candidates)
    assert found == ["2409.00001", "2409.00002", "2409.00003", "2409.00004", "2409.00006"]


def test_control_characters_are_dropped_from_keywords_and_authors() -> None:
    spec = read_watch(text="arxiv cs.LG keywords: graph\x1b[2Jnets, \x07 authors: Ada\x00 Lovelace")
    assert spec.keywords == ("graph [2Jnets",)
    assert spec.authors == ("Ada Lovelace",)
