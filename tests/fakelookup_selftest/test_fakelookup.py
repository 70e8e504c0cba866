"""The fake arXiv and Crossref: search syntax, answer formats, fault knobs, clean shutdown,
and the reading-list catalogue."""

from __future__ import annotations

import json
import re
import threading
import time
import urllib.error
import urllib.request
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote, urlencode

import pytest

from bot import ingest
from bot.ingest.crossref import crossref_work
from bot.lookup import HttpLookup
from tests.fakelookup import FakeScholar, Record
from tests.fakelookup.reading_list import CATALOGUE
from tests.fakelookup.records import words

ATOM = "{http://www.w3.org/2005/Atom}"
OPENSEARCH = "{http://a9.com/-/spec/opensearch/1.1/}"
ARXIV = "{http://arxiv.org/schemas/atom}"
READING_LIST = Path(__file__).resolve().parents[2] / "bot" / "data" / "reading-list.txt"
QUILL = CATALOGUE[1]
ONLY_ARXIV = Record(title="Only On ArXiv", authors=("A B",), abstract="x", arxiv_id="2409.09999")
ONLY_CROSSREF = Record(title="Only In Crossref", authors=("C D",), abstract="", doi="10.5555/only")


@pytest.fixture
def fake() -> Iterator[FakeScholar]:
    """The fake serving the catalogue plus one arXiv-only and one Crossref-only record."""
    with FakeScholar([*CATALOGUE, ONLY_ARXIV, ONLY_CROSSREF]) as running:
        yield running


def _get(*, url: str, timeout: float = 5) -> tuple[int, dict[str, str], bytes]:
    """Status, headers and body of a GET, HTTP errors included."""
    request = urllib.request.Request(url, headers={"User-Agent": "selftest/1"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, dict(response.headers.items()), response.read()
    except urllib.error.HTTPError as error:
        with error:
            return error.code, dict(error.headers.items()), error.read()


def _search(*, fake: FakeScholar, query: str, **params: str) -> ET.Element:
    """The parsed feed for a search_query, encoded the usual way (urlencode)."""
    status, _, body = _get(url=f"{fake.arxiv_url}?{urlencode({'search_query': query, **params})}")
    assert status == 200
    return ET.fromstring(body)


def _ids(*, feed: ET.Element) -> list[str]:
    """The versionless arXiv ids of a feed's entries."""
    return [
        e.findtext(f"{ATOM}id", "").rsplit("/", 1)[-1].split("v")[0]
        for e in feed.iter(f"{ATOM}entry")
    ]


def _total(*, feed: ET.Element) -> int:
    """opensearch:totalResults of a feed."""
    return int(feed.findtext(f"{OPENSEARCH}totalResults", "-1"))


def _works(*, fake: FakeScholar, **params: str) -> dict[str, object]:
    """The message of a Crossref /works search."""
    status, _, body = _get(url=f"{fake.crossref_url}/works?{urlencode(params)}")
    assert status == 200
    answer = json.loads(body)
    assert answer["status"] == "ok" and answer["message-type"] == "work-list"
    return dict(answer["message"])


def test_a_title_phrase_finds_its_paper_in_a_real_looking_feed(fake: FakeScholar) -> None:
    feed = _search(fake=fake, query='ti:"slicing and PARALLELIZING   cnn inference"')
    assert _ids(feed=feed) == ["2409.01017"] and _total(feed=feed) == 1
    entry = next(feed.iter(f"{ATOM}entry"))
    assert entry.findtext(f"{ATOM}id") == "http://arxiv.org/abs/2409.01017v1"
    summary = entry.findtext(f"{ATOM}summary", "")
    assert "\n" in summary.strip() and " ".join(summary.split()) == QUILL.abstract
    assert [a.findtext(f"{ATOM}name") for a in entry.iter(f"{ATOM}author")] == list(QUILL.authors)
    assert entry.findtext(f"{ATOM}published") == "2024-09-02T12:00:00Z"
    assert entry.findtext(f"{ARXIV}doi") == QUILL.doi
    links = {link.get("rel"): link.get("href") for link in entry.iter(f"{ATOM}link")}
    assert links["alternate"] == "http://arxiv.org/abs/2409.01017v1"


def test_an_abstract_phrase_finds_its_paper_and_a_near_miss_finds_nothing(
    fake: FakeScholar,
) -> None:
    phrase = "the sparse embedding table is a component"
    assert _ids(feed=_search(fake=fake, query=f'abs:"{phrase}"')) == ["2409.01388"]
    # One word off, a cut-off word, a phrase out of order, the wrong field: no match.
    for query in (
        'abs:"the sparse embedding tables is a component"',
        'ti:"Nonuniform-Tensor-Parallelism: Mitigating GPU fail"',
        'abs:"table embedding sparse"',
        f'ti:"{phrase}"',
    ):
        feed = _search(fake=fake, query=query)
        assert _ids(feed=feed) == [] and _total(feed=feed) == 0, query


def test_terms_join_with_and_in_every_spelling(fake: FakeScholar) -> None:
    title, abstract = 'ti:"Mitigating GPU failures"', 'abs:"smaller tensor-parallel degree"'
    assert _ids(feed=_search(fake=fake, query=f"{title} AND {abstract}")) == ["2409.00421"]
    assert _ids(feed=_search(fake=fake, query=f"({title}) AND ({abstract})")) == ["2409.00421"]
    # arXiv's documented form: "+AND+" literally in the URL, so "+" is a space once decoded.
    url = f"{fake.arxiv_url}?search_query={quote(title)}+AND+{quote(abstract)}&max_results=5"
    assert _ids(feed=ET.fromstring(_get(url=url)[2])) == ["2409.00421"]
    wrong = 'abs:"a bigger tensor-parallel degree"'
    assert _ids(feed=_search(fake=fake, query=f"{title} AND {wrong}")) == []
    assert _ids(feed=_search(fake=fake, query="all:Quill AND all:Kiran")) == ["2409.01017"]
    # "+AND+" sent encoded (%2B) reads the same once decoded.
    assert _ids(feed=_search(fake=fake, query=f"{title}+AND+{abstract}")) == ["2409.00421"]


def test_or_andnot_and_bare_adjacency_follow_lucene(fake: FakeScholar) -> None:
    both = ["2409.01017", "2409.01388"]
    assert _ids(feed=_search(fake=fake, query="all:Quill OR all:EmberShard")) == both
    # Terms side by side, no operator: OR, as in the Lucene engine behind arXiv's API.
    assert _ids(feed=_search(fake=fake, query="ti:Quill ti:EmberShard")) == both
    assert _ids(feed=_search(fake=fake, query="all:Quill ANDNOT au:Kiran")) == []
    query = "(all:Quill OR all:EmberShard) ANDNOT au:Okafor"
    assert _ids(feed=_search(fake=fake, query=query)) == ["2409.01017"]


def test_start_and_max_results_page_through_the_matches(fake: FakeScholar) -> None:
    every = _search(fake=fake, query="all:GPUs", max_results="50")
    assert _total(feed=every) == len(_ids(feed=every)) > 3
    page = _search(fake=fake, query="all:GPUs", start="1", max_results="2")
    assert _ids(feed=page) == _ids(feed=every)[1:3] and _total(feed=page) == _total(feed=every)


def test_id_list_answers_the_paper_or_an_error_entry_our_parser_reads(fake: FakeScholar) -> None:
    status, headers, body = _get(url=f"{fake.arxiv_url}?id_list=2409.01017v1&max_results=1")
    assert status == 200 and headers["Content-Type"].startswith("application/atom+xml")
    drafts, rejections = ingest.parse(path="arxiv-api", text=body.decode(), fmt="atom")
    assert rejections == [] and len(drafts) == 1
    assert (drafts[0].arxiv_id, drafts[0].doi, drafts[0].title) == (
        "2409.01017",
        QUILL.doi,
        QUILL.title,
    )
    assert drafts[0].abstract == QUILL.abstract and drafts[0].authors == QUILL.authors
    # A title longer than a line arrives wrapped, as arXiv's do, and reads back whole.
    body = _get(url=f"{fake.arxiv_url}?id_list=2409.00421,2409.01017v1")[2]
    drafts, _ = ingest.parse(path="arxiv-api", text=body.decode(), fmt="atom")
    assert [d.arxiv_id for d in drafts] == ["2409.00421", "2409.01017"]
    assert "\n" in body.decode().split("<title>")[2] and drafts[0].title == CATALOGUE[0].title
    for unknown in ("2409.99999", "not-an-id", ONLY_CROSSREF.title):
        error = ET.fromstring(_get(url=f"{fake.arxiv_url}?{urlencode({'id_list': unknown})}")[2])
        entries = list(error.iter(f"{ATOM}entry"))
        assert [e.findtext(f"{ATOM}title") for e in entries] == ["Error"], unknown
        assert "/api/errors#" in entries[0].findtext(f"{ATOM}id", "")
    assert _ids(feed=_search(fake=fake, query='ti:"Only In Crossref"')) == []


def test_crossref_ranks_by_word_overlap_and_answers_only_overlaps(fake: FakeScholar) -> None:
    query = "Tiered Memory for Training Large Language Models Pavel Novak"
    message = _works(
        fake=fake,
        **{
            "query.bibliographic": query,
            "rows": "3",
            "mailto": "ops@example.org",
            "select": "DOI,title",
        },
    )
    items = message["items"]
    assert isinstance(items, list) and len(items) == 3
    assert items[0]["DOI"] == "10.5555/fis.2024.0106"
    scores = [item["score"] for item in items]
    assert scores == sorted(scores, reverse=True) and scores[0] > scores[1]
    asked = set(words(text=query))
    overlapping = [
        r
        for r in [*CATALOGUE, ONLY_CROSSREF]
        if r.doi and asked & set(words(text=" ".join((r.title, *r.authors))))
    ]
    assert message["total-results"] == len(overlapping) > 3
    first = items[0]
    assert first["author"][1] == {
        "given": "Pavel",
        "family": "Novak",
        "sequence": "additional",
        "affiliation": [],
    }
    assert first["abstract"].startswith("<jats:p>") and first["published"] == {
        "date-parts": [[2024, 9, 8]]
    }
    draft = crossref_work(work=first)
    assert draft is not None and draft.abstract == CATALOGUE[11].abstract
    nothing = _works(fake=fake, **{"query.bibliographic": "zzyzx quokka"})
    assert nothing["items"] == [] and nothing["total-results"] == 0
    arxiv_only = _works(fake=fake, **{"query.bibliographic": "Only On ArXiv"})
    assert all(item["DOI"] != ONLY_ARXIV.doi for item in arxiv_only["items"])  # type: ignore[attr-defined]


def test_crossref_work_by_doi_or_404(fake: FakeScholar) -> None:
    status, _, body = _get(url=f"{fake.crossref_url}/works/10.5555/FIS.2024.0101")
    assert status == 200 and json.loads(body)["message"]["title"] == [QUILL.title]
    assert "score" not in json.loads(body)["message"]
    status, _, body = _get(url=f"{fake.crossref_url}/works/{quote('10.5555/only', safe='')}")
    assert status == 200 and "abstract" not in json.loads(body)["message"]
    assert _get(url=f"{fake.crossref_url}/works/10.5555/nope")[0] == 404


def test_fail_next_answers_503_with_retry_after_then_recovers(fake: FakeScholar) -> None:
    fake.fail_next("arxiv", retry_after=7, times=2)
    url = f"{fake.arxiv_url}?id_list=2409.01017"
    for _ in range(2):
        status, headers, _ = _get(url=url)
        assert status == 503 and headers["Retry-After"] == "7"
    assert _get(url=url)[0] == 200
    fake.fail_next("crossref", status=429)
    status, headers, _ = _get(url=f"{fake.crossref_url}/works?query.bibliographic=gpu")
    assert status == 429 and "Retry-After" not in headers
    assert (fake.count("arxiv"), fake.count("crossref")) == (3, 1)
    with pytest.raises(ValueError, match="service"):
        fake.fail_next("arXiv")


def test_malformed_next_breaks_one_body_with_a_200(fake: FakeScholar) -> None:
    fake.malformed_next("arxiv")
    fake.malformed_next("crossref")
    status, _, body = _get(url=f"{fake.arxiv_url}?id_list=2409.01017")
    assert status == 200
    with pytest.raises(ET.ParseError):
        ET.fromstring(body)
    drafts, rejections = ingest.parse(path="arxiv-api", text=body.decode(), fmt="atom")
    assert drafts == [] and len(rejections) == 1
    status, _, body = _get(url=f"{fake.crossref_url}/works?query.bibliographic=gpu")
    assert status == 200
    with pytest.raises(json.JSONDecodeError):
        json.loads(body)
    assert len(_ids(feed=ET.fromstring(_get(url=f"{fake.arxiv_url}?id_list=2409.01017")[2]))) == 1


def test_stall_next_outlasts_a_client_timeout_then_answers_normally(fake: FakeScholar) -> None:
    fake.stall_next("crossref", 2)
    started = time.monotonic()
    with pytest.raises(TimeoutError):
        _get(url=f"{fake.crossref_url}/works/10.5555/fis.2024.0101", timeout=0.3)
    assert time.monotonic() - started < 1.5
    assert _get(url=f"{fake.arxiv_url}?id_list=2409.01017", timeout=0.5)[0] == 200  # not stalled
    assert _get(url=f"{fake.crossref_url}/works/10.5555/fis.2024.0101", timeout=1)[0] == 200


def test_requests_log_service_path_arrival_and_headers(fake: FakeScholar) -> None:
    _get(url=f"{fake.arxiv_url}?search_query=all:gpu&max_results=1")
    _get(url=f"{fake.crossref_url}/works?query.bibliographic=gpu&rows=1")
    _get(url=f"{fake.base_url}/elsewhere")
    log = fake.requests
    assert [(r.service, r.path) for r in log] == [
        ("arxiv", "/api/query?search_query=all:gpu&max_results=1"),
        ("crossref", "/crossref/works?query.bibliographic=gpu&rows=1"),
        ("other", "/elsewhere"),
    ]
    service, _, arrived, headers = log[0]
    assert service == "arxiv" and arrived <= log[1].at <= time.monotonic()
    assert headers["User-Agent"] == "selftest/1"


def test_added_records_are_served_and_ranked(fake: FakeScholar) -> None:
    fake.add(
        Record(
            title="Zebra Gradients",
            authors=("Q Z",),
            abstract="Stripes.",
            arxiv_id="2409.08888",
            doi="10.5555/zebra",
        )
    )
    assert _ids(feed=_search(fake=fake, query='ti:"zebra gradients"')) == ["2409.08888"]
    top = _works(fake=fake, **{"query.bibliographic": "zebra gradients"})["items"]
    assert top[0]["DOI"] == "10.5555/zebra"  # type: ignore[index]


def test_exit_releases_stalls_and_leaves_no_thread_or_socket() -> None:
    before = set(threading.enumerate())
    outcome: list[object] = []
    with FakeScholar([QUILL]) as fake:
        fake.stall_next("arxiv", 60)
        url, base = f"{fake.arxiv_url}?id_list=2409.01017", fake.base_url
        client = threading.Thread(target=lambda: outcome.append(_get(url=url, timeout=30)[0]))
        client.start()
        deadline = time.monotonic() + 5
        while fake.count("arxiv") == 0 and time.monotonic() < deadline:
            time.sleep(0.01)  # wait for the signal: the stalled request has arrived
        assert fake.count("arxiv") == 1
        leaving = time.monotonic()
    assert time.monotonic() - leaving < 2
    client.join(timeout=5)
    assert outcome == [200] and set(threading.enumerate()) == before
    with pytest.raises(urllib.error.URLError):
        _get(url=f"{base}/api/query?id_list=2409.01017", timeout=1)
    with pytest.raises(RuntimeError):
        _ = fake.arxiv_url


def _list_openings() -> list[str]:
    """Each list entry's abstract as the importer reads it, less the ellipsis and cut word."""
    drafts, rejections = ingest.parse(path=str(READING_LIST), text=READING_LIST.read_text("utf-8"))
    assert rejections == []
    return [d.abstract.removesuffix("…").rsplit(" ", 1)[0] for d in drafts if d.abstract]


def test_the_catalogue_matches_the_shipped_reading_list() -> None:
    openings = _list_openings()
    assert len(openings) == 20 and len(CATALOGUE) == 21
    assert CATALOGUE[0].title.startswith("Nonuniform-Tensor-Parallelism: Mitigating GPU failures")
    for opening, record in zip(openings, CATALOGUE[1:], strict=True):
        ours, theirs = words(text=opening), words(text=record.abstract)
        assert theirs[: len(ours)] == ours, record.title
        assert len(theirs) > len(ours) + 20, record.title  # 2–4 sentences follow
    ids = [r.arxiv_id or "" for r in CATALOGUE]
    assert len(set(ids)) == 21 and all(re.fullmatch(r"2409\.0\d{4}", i) for i in ids)
    assert len({r.title for r in CATALOGUE}) == 21
    assert all(2 <= len(r.authors) <= 5 for r in CATALOGUE)
    assert 8 <= sum(1 for r in CATALOGUE if r.doi) <= 13
    assert all(r.published.startswith("2024-09-") for r in CATALOGUE)


def test_the_default_fake_serves_the_catalogue() -> None:
    with FakeScholar() as fake:
        feed = ET.fromstring(_get(url=f"{fake.arxiv_url}?id_list=2409.07863")[2])
        assert _ids(feed=feed) == ["2409.07863"]
    with FakeScholar([]) as empty:
        assert _total(feed=_search(fake=empty, query="all:gpu")) == 0


def test_the_bot_lookup_by_id_reads_both_services(fake: FakeScholar) -> None:
    lookup = HttpLookup(arxiv_url=fake.arxiv_url, crossref_url=fake.crossref_url, timeout=2)
    paper = lookup.by_arxiv_id(arxiv_id="2409.03154")
    assert paper is not None and paper.title == CATALOGUE[7].title
    assert paper.doi == CATALOGUE[7].doi and paper.abstract == CATALOGUE[7].abstract
    assert lookup.by_arxiv_id(arxiv_id="2409.99999") is None
    work = lookup.by_doi(doi="10.5555/fis.2024.0104")
    assert work is not None and work.abstract == CATALOGUE[7].abstract
    assert work.authors == CATALOGUE[7].authors and str(work.published) == "2024-09-05"
    assert lookup.by_doi(doi="10.5555/nope") is None
