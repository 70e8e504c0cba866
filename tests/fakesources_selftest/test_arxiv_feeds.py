"""FakeArxiv's feeds against the real 2024-format capture, the mailing calendar, conditional
GET, pacing and broken bodies."""

from __future__ import annotations

import threading
import urllib.error
import urllib.request
import xml.etree.ElementTree as ET
from datetime import date
from pathlib import Path

import pytest

from tests.fakesources import Announcement, FakeArxiv

SAMPLES = Path(__file__).resolve().parents[1] / "fakesources" / "samples"
ATOM = "{http://www.w3.org/2005/Atom}"
ARXIV = "{http://arxiv.org/schemas/atom}"
MONDAY, SATURDAY, HOLIDAY = date(2024, 9, 2), date(2024, 9, 7), date(2024, 9, 4)
HOSTILE = "<script>alert(1)</script> @channel & 🧪 " + "x" * 10_000
NEW = Announcement(
    arxiv_id="2409.00001",
    title="Pipelines " + HOSTILE,
    abstract="We show <b>it</b>.",
    authors=("Ada Lovelace", "Alan Turing"),
    categories=("cs.LG", "cs.AI"),
)
OLD = Announcement(
    arxiv_id="2401.00002",
    title="Revised",
    abstract="v3.",
    authors=("Grace Hopper",),
    categories=("cs.AI",),
    version=3,
    replacement=True,
    doi="10.5555/x",
)


def _get(url: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    """Status, headers and body, HTTP errors included."""
    request = urllib.request.Request(url, headers={"User-Agent": "selftest/1", **headers})
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, dict(response.headers.items()), response.read()
    except urllib.error.HTTPError as error:
        with error:
            return error.code, dict(error.headers.items()), error.read()


def _structure(element: ET.Element) -> list[str]:
    """Child tags of an element in order, repeats collapsed (the shape, not the content)."""
    tags = [child.tag for child in element]
    return [t for i, t in enumerate(tags) if i == 0 or tags[i - 1] != t]


def test_an_atom_entry_has_the_real_captures_elements_in_its_order() -> None:
    real = ET.parse(SAMPLES / "arxiv_atom_cs.AI_2025-08-20.xml").getroot()
    with FakeArxiv(today=MONDAY) as arxiv:
        arxiv.calendar.announce(day=MONDAY, papers=[NEW])
        fake = ET.fromstring(_get(arxiv.atom_url("cs.LG"))[2])
    assert _structure(fake)[:5] == _structure(real)[:5]
    real_entry, fake_entry = real.find(f"{ATOM}entry"), fake.find(f"{ATOM}entry")
    assert real_entry is not None and fake_entry is not None
    assert _structure(fake_entry) == _structure(real_entry)
    summary = fake_entry.findtext(f"{ATOM}summary", "")
    assert summary.startswith("arXiv:2409.00001v1 Announce Type: new \nAbstract: We show <b>")
    assert real_entry.findtext(f"{ATOM}summary", "").split("\n")[0].endswith("Announce Type: new ")
    assert fake_entry.findtext(f"{ATOM}title") == NEW.title  # hostile text survives, escaped


def test_rss_items_carry_the_documented_elements_and_announce_types() -> None:
    with FakeArxiv(today=MONDAY) as arxiv:
        arxiv.calendar.announce(day=MONDAY, papers=[NEW, OLD])
        status, headers, body = _get(arxiv.rss_url("cs.AI"))
    assert status == 200 and headers["Content-Type"].startswith("application/rss+xml")
    channel = ET.fromstring(body).find("channel")
    assert channel is not None
    assert channel.findtext("pubDate") == "Mon, 02 Sep 2024 00:00:00 -0400"
    assert [d.text for d in channel.iter("day")] == ["Saturday", "Sunday"]
    items = channel.findall("item")
    kinds = [i.findtext(f"{ARXIV}announce_type") for i in items]
    assert kinds == ["cross", "replace"]  # cs.LG primary: a cross-list in cs.AI
    assert items[1].findtext("guid") == "oai:arXiv.org:2401.00002v3"
    assert items[1].findtext(f"{ARXIV}DOI") == "10.5555/x"
    assert (
        items[0].findtext("{http://purl.org/dc/elements/1.1/}creator")
        == "Ada Lovelace, Alan Turing"
    )
    documented = (SAMPLES / "arxiv_rss_specifications.md").read_text()
    for tag in ("title", "link", "description", "guid", "category", "pubDate"):
        assert f"<{tag}" in documented and items[0].find(tag) is not None


def test_two_categories_joined_by_plus_list_a_paper_once() -> None:
    with FakeArxiv(today=MONDAY) as arxiv:
        arxiv.calendar.announce(day=MONDAY, papers=[NEW])
        channel = ET.fromstring(_get(arxiv.rss_url("cs.AI", "cs.LG"))[2]).find("channel")
    assert channel is not None and len(channel.findall("item")) == 1
    assert channel.findtext("title") == "cs.AI+cs.LG updates on arXiv.org"


def test_weekends_and_holidays_serve_the_empty_feed_and_a_late_day_the_previous_one() -> None:
    with FakeArxiv(today=MONDAY) as arxiv:
        arxiv.calendar.holidays.add(HOLIDAY)
        arxiv.calendar.announce(day=MONDAY, papers=[NEW])
        arxiv.calendar.announce(day=date(2024, 9, 3), papers=[OLD])
        with pytest.raises(ValueError):
            arxiv.calendar.announce(day=SATURDAY, papers=[NEW])
        monday = _get(arxiv.rss_url("cs.AI"))
        for empty in (SATURDAY, HOLIDAY):
            arxiv.set_day(empty)
            channel = ET.fromstring(_get(arxiv.rss_url("cs.AI"))[2]).find("channel")
            assert channel is not None and channel.findall("item") == []
        arxiv.set_day(date(2024, 9, 3), late=True)
        late = _get(arxiv.rss_url("cs.AI"))
        assert late[2] == monday[2] and late[1]["ETag"] == monday[1]["ETag"]
        arxiv.set_day(date(2024, 9, 3))
        assert b"2401.00002v3" in _get(arxiv.rss_url("cs.AI"))[2]


def test_conditional_get_answers_304_and_records_the_headers() -> None:
    with FakeArxiv(today=MONDAY) as arxiv:
        arxiv.calendar.announce(day=MONDAY, papers=[NEW])
        _, headers, _ = _get(arxiv.rss_url("cs.AI"))
        assert _get(arxiv.rss_url("cs.AI"), **{"If-None-Match": headers["ETag"]})[0] == 304
        since = {"If-Modified-Since": headers["Last-Modified"]}
        assert _get(arxiv.rss_url("cs.AI"), **since)[0] == 304
        assert _get(arxiv.rss_url("cs.AI"), **{"If-None-Match": '"other"'})[0] == 200
        sent = arxiv.requests
    assert [r.status for r in sent] == [200, 304, 304, 200]
    assert sent[1].header("if-none-match") == headers["ETag"]
    assert sent[2].header("If-Modified-Since") == headers["Last-Modified"]
    assert all(r.header("User-Agent") == "selftest/1" for r in sent)


def test_a_request_sooner_than_the_spacing_gets_429_with_retry_after() -> None:
    with FakeArxiv(today=MONDAY, spacing=30.0, retry_after=7) as arxiv:
        assert _get(arxiv.rss_url("cs.AI"))[0] == 200
        status, headers, _ = _get(arxiv.api_url + "?search_query=all:x")
    assert status == 429 and headers["Retry-After"] == "7"


def test_broken_bodies_do_not_parse_and_the_next_answer_is_whole_again() -> None:
    with FakeArxiv(today=MONDAY) as arxiv:
        arxiv.calendar.announce(day=MONDAY, papers=[NEW])
        for how in ("truncated", "malformed"):
            arxiv.break_next(how)
            with pytest.raises(ET.ParseError):
                ET.fromstring(_get(arxiv.rss_url("cs.AI"))[2])
        arxiv.break_next("html")
        assert _get(arxiv.atom_url("cs.AI"))[1]["Content-Type"].startswith("text/html")
        ET.fromstring(_get(arxiv.rss_url("cs.AI"))[2])
        bad = ET.fromstring(_get(arxiv.rss_url("not%20a%20category!"))[2]).find("channel")
    assert bad is not None and (bad.findtext("title") or "").startswith("Feed error for query")


def test_the_api_serves_announced_papers_by_category_newest_first_with_totals() -> None:
    with FakeArxiv(today=MONDAY) as arxiv:
        arxiv.calendar.announce(day=MONDAY, papers=[NEW])
        arxiv.calendar.announce(day=date(2024, 9, 3), papers=[OLD])
        assert b"<opensearch:totalResults>1<" in _get(arxiv.api_url + "?search_query=cat:cs.AI")[2]
        arxiv.set_day(date(2024, 9, 3))
        url = arxiv.api_url + "?search_query=cat:cs.AI&sortBy=submittedDate&max_results=1"
        feed = ET.fromstring(_get(url)[2])
    real = ET.parse(SAMPLES / "arxiv_api_query_all_electron.xml").getroot()
    opensearch = "{http://a9.com/-/spec/opensearch/1.1/}"
    assert feed.findtext(f"{opensearch}totalResults") == "2"
    assert real.find(f"{opensearch}totalResults") is not None
    ids = [e.findtext(f"{ATOM}id") for e in feed.iter(f"{ATOM}entry")]
    assert ids == ["http://arxiv.org/abs/2401.00002v3"]


def test_a_client_opening_two_connections_at_once_is_seen() -> None:
    with FakeArxiv(today=MONDAY) as arxiv:
        arxiv.stall_next(seconds=0.5)
        slow = threading.Thread(target=_get, args=(arxiv.rss_url("cs.AI"),))
        slow.start()
        _get(arxiv.rss_url("cs.LG"))
        slow.join()
        assert arxiv.max_in_flight == 2
