"""FakeFeeds (any document, sizes, slow answers) and FakeCrossref (journal works, filters,
deep paging, the polite pool) against the real captures."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
import xml.etree.ElementTree as ET
from datetime import UTC, date, datetime
from pathlib import Path
from urllib.parse import urlencode

from tests.fakesources import RDF_KIND, CrossrefWork, FakeCrossref, FakeFeeds

SAMPLES = Path(__file__).resolve().parents[1] / "fakesources" / "samples"
ISSN = "1932-6203"


def _get(url: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    """Status, headers and body, HTTP errors included."""
    request = urllib.request.Request(url, headers={"User-Agent": "selftest/1", **headers})
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, dict(response.headers.items()), response.read()
    except urllib.error.HTTPError as error:
        with error:
            return error.code, dict(error.headers.items()), error.read()


def test_a_real_biorxiv_feed_is_served_byte_for_byte_with_validators() -> None:
    body = (SAMPLES / "biorxiv_bioengineering_rss1.xml").read_bytes()
    with FakeFeeds() as feeds:
        url = feeds.put("/biorxiv_xml/bioengineering", body=body, kind=RDF_KIND)
        status, headers, got = _get(url)
        again = _get(url, **{"If-None-Match": headers["ETag"]})
        assert _get(feeds.url + "/elsewhere")[0] == 404
        plain = feeds.put("/toc.xml", body=body, validators=False)
        bare = _get(plain, **{"If-None-Match": headers["ETag"]})
    assert (status, got) == (200, body) and again[0] == 304
    assert bare[0] == 200 and "ETag" not in bare[1] and "Last-Modified" not in bare[1]
    ET.fromstring(got)


def test_an_oversized_feed_has_the_size_asked_and_may_hide_it() -> None:
    with FakeFeeds() as feeds:
        sized = _get(feeds.oversized("/big.xml", size=100_000))
        hidden = _get(feeds.oversized("/hidden.xml", size=50_000, length=False))
    assert len(sized[2]) == 100_000 and sized[1]["Content-Length"] == "100000"
    assert len(hidden[2]) == 50_000 and "Content-Length" not in hidden[1]
    ET.fromstring(sized[2])


def test_a_dripped_answer_arrives_slowly_and_whole() -> None:
    with FakeFeeds() as feeds:
        url = feeds.put("/slow.xml", body="<rss version='2.0'><channel/></rss>" * 3)
        feeds.drip_next(chunk=30, every=0.05)
        began = time.monotonic()
        status, _, body = _get(url)
        took = time.monotonic() - began
    assert status == 200 and len(body) == 105 and took >= 0.1


def _work(n: int, *, indexed: datetime, title: str = "Paper") -> CrossrefWork:
    """A PLOS ONE work numbered n."""
    return CrossrefWork(
        doi=f"10.1371/journal.pone.{n:07d}",
        title=f"{title} {n}",
        authors=("Ada Lovelace",),
        issn=ISSN,
        published=indexed.date(),
        indexed=indexed,
        container_title="PLOS ONE",
        abstract="A <b>bold</b> claim.",
    )


def test_an_item_has_the_real_items_keys_and_dates_shaped_alike() -> None:
    real = json.loads((SAMPLES / "crossref_journal_works_1932-6203_page1.json").read_text())
    with FakeCrossref() as crossref:
        crossref.add(_work(1, indexed=datetime(2024, 9, 2, 6, tzinfo=UTC)))
        status, headers, body = _get(crossref.journal_url(ISSN) + "?rows=5&cursor=*")
    fake = json.loads(body)
    assert status == 200 and headers["Content-Type"] == "application/json"
    assert list(fake) == list(real) and list(fake["message"]) == list(real["message"])
    item, real_item = fake["message"]["items"][0], real["message"]["items"][0]
    assert set(item) <= set(real_item)
    for key in ("indexed", "created", "deposited", "published", "issued", "issn-type", "author"):
        assert type(item[key]) is type(real_item[key]), key
    assert set(item["indexed"]) == set(real_item["indexed"])
    assert item["score"] == real_item["score"] == 0.0


def test_filters_rows_and_a_cursor_that_keeps_its_token_page_after_page() -> None:
    days = [datetime(2024, 9, d, 6, tzinfo=UTC) for d in range(1, 8)]
    with FakeCrossref() as crossref:
        crossref.add(*[_work(n, indexed=day) for n, day in enumerate(days)])
        base = (
            crossref.journal_url(ISSN)
            + "?"
            + urlencode(
                {"filter": "from-index-date:2024-09-03,until-index-date:2024-09-06", "rows": "3"}
            )
        )
        first = json.loads(_get(base + "&cursor=*")[2])["message"]
        token = first["next-cursor"]
        second = json.loads(_get(base + "&" + urlencode({"cursor": token}))[2])["message"]
        third = json.loads(_get(base + "&" + urlencode({"cursor": token}))[2])["message"]
        assert _get(base + "&cursor=nonsense")[0] == 400
        assert _get(crossref.journal_url(ISSN) + "?rows=1001")[0] == 400
        assert _get(crossref.journal_url(ISSN) + "?filter=from-moon-date:2024")[0] == 400
        missing = _get(crossref.journal_url("0000-0000"))
    assert first["total-results"] == 4 and len(first["items"]) == 3
    assert second["next-cursor"] == token and len(second["items"]) == 1 and third["items"] == []
    assert missing[0] == 404 and missing[2] == b"Resource not found."


def test_query_bibliographic_ranks_and_pub_date_filters() -> None:
    with FakeCrossref() as crossref:
        crossref.add(
            _work(1, indexed=datetime(2024, 9, 1, tzinfo=UTC), title="Pipeline parallelism"),
            _work(2, indexed=datetime(2024, 9, 2, tzinfo=UTC), title="Protein folding"),
        )
        url = crossref.journal_url(ISSN) + "?" + urlencode({"query.bibliographic": "pipeline"})
        found = json.loads(_get(url)[2])["message"]
        dated = crossref.journal_url(ISSN) + "?filter=from-pub-date:2024-09-02"
        later = json.loads(_get(dated)[2])["message"]
    assert [i["title"][0] for i in found["items"]] == ["Pipeline parallelism 1"]
    assert found["items"][0]["score"] > 0 and found["query"]["search-terms"] == "pipeline"
    assert [i["title"][0] for i in later["items"]] == ["Protein folding 2"]
    assert later["items"][0]["published"]["date-parts"] == [[2024, 9, 2]]
    assert date(2024, 9, 2).isoformat() in later["items"][0]["indexed"]["date-time"]


def test_the_polite_pool_headers_and_a_429_with_retry_after() -> None:
    real = json.loads((SAMPLES / "crossref_polite_headers.json").read_text())["headers"]
    with FakeCrossref() as crossref:
        crossref.add(_work(1, indexed=datetime(2024, 9, 1, tzinfo=UTC)))
        polite = _get(crossref.journal_url(ISSN) + "?mailto=club%40example.org")[1]
        agent = _get(crossref.journal_url(ISSN), **{"User-Agent": "pc/1 (mailto:a@b.org)"})[1]
        public = _get(crossref.journal_url(ISSN))[1]
        crossref.fail_next(status=429, retry_after=2)
        limited = _get(crossref.journal_url(ISSN))
        sent = crossref.requests
    for key in ("x-api-pool", "x-rate-limit-limit", "x-rate-limit-interval"):
        assert polite[key] == real[key]
    assert agent["x-api-pool"] == "polite" and public["x-api-pool"] == "public"
    assert limited[0] == 429 and limited[1]["Retry-After"] == "2"
    assert "mailto=" in sent[0].path and sent[1].header("user-agent") == "pc/1 (mailto:a@b.org)"
