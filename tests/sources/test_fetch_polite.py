"""The fetcher is polite to the sources: conditional GETs answered 304, a User-Agent with the
operator's contact, one request at a time per host spaced as asked (arXiv: 3 s), Retry-After
honoured and an exponential backoff otherwise; all on a fake clock, against the local fakes."""

from __future__ import annotations

import threading
from datetime import date

from bot.outbound.agent import PRODUCT
from bot.outbound.retry import Backoff
from bot.outbound.spacing import HostTurns
from bot.ports.fetching import Body, Failed, NotModified, Validators
from tests.fakesources import ATOM_KIND, Answer, FakeArxiv, FakeFeeds
from tests.sources.faketime import FakeTime, fetcher_on

MONDAY = date(2024, 9, 2)
FEED = '<?xml version="1.0"?><rss version="2.0"><channel><title>T</title></channel></rss>'


def test_a_second_fetch_with_the_validators_is_answered_not_modified() -> None:
    time = FakeTime()
    with FakeFeeds() as feeds:
        url = feeds.put("/toc.xml", body=FEED)
        fetcher = fetcher_on(time)
        first = fetcher.fetch(url=url)
        assert isinstance(first, Body)
        assert first.data == FEED.encode() and first.url == url
        assert first.validators.etag and first.validators.last_modified
        second = fetcher.fetch(url=url, validators=first.validators)
        assert second == NotModified(validators=first.validators)
        sent = feeds.requests[1]
        assert sent.header("If-None-Match") == first.validators.etag
        assert sent.header("If-Modified-Since") == first.validators.last_modified
        assert sent.status == 304
        feeds.put("/toc.xml", body=FEED.replace("<title>T", "<title>New"))
        third = fetcher.fetch(url=url, validators=first.validators)
        assert isinstance(third, Body) and b"New" in third.data


def test_last_modified_alone_is_sent_and_honoured() -> None:
    with FakeArxiv(today=MONDAY) as arxiv:
        fetcher = fetcher_on(FakeTime())
        first = fetcher.fetch(url=arxiv.atom_url("cs.AI"))
        assert isinstance(first, Body) and first.validators.last_modified
        again = fetcher.fetch(
            url=arxiv.atom_url("cs.AI"),
            validators=Validators(last_modified=first.validators.last_modified),
        )
        assert isinstance(again, NotModified)
        assert arxiv.requests[1].header("If-None-Match") is None


def test_the_user_agent_names_paper_club_and_the_contact_and_gzip_is_accepted() -> None:
    with FakeFeeds() as feeds:
        url = feeds.put("/toc.xml", body=FEED, kind=ATOM_KIND)
        fetcher_on(FakeTime(), contact="club@example.org").fetch(url=url)
        fetcher_on(FakeTime()).fetch(url=url)
        with_contact, without = feeds.requests
        assert with_contact.header("User-Agent") == f"{PRODUCT}; mailto:club@example.org)"
        assert without.header("User-Agent") == f"{PRODUCT})"
        assert with_contact.header("Accept-Encoding") == "gzip"


def test_arxiv_is_asked_three_seconds_apart_one_request_at_a_time() -> None:
    time = FakeTime()
    with FakeArxiv(today=MONDAY) as arxiv:
        fetcher = fetcher_on(time, gaps={"127.0.0.1": 3.0})
        urls = [arxiv.rss_url(c) for c in ("cs.AI", "cs.LG", "cs.DC", "math.OC")] * 2
        threads = [threading.Thread(target=fetcher.fetch, kwargs={"url": u}) for u in urls]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert len(arxiv.requests) == len(urls)
        assert arxiv.max_in_flight == 1
        assert time.sleeps == [3.0] * (len(urls) - 1)
        assert time.now == 3.0 * (len(urls) - 1)


def test_other_hosts_get_one_second_and_arxiv_org_subdomains_three() -> None:
    turns = HostTurns()
    assert turns.gap(host="export.arxiv.org") == 3.0
    assert turns.gap(host="rss.arxiv.org.") == 3.0
    assert turns.gap(host="notarxiv.org") == 1.0
    assert turns.gap(host="connect.biorxiv.org") == 1.0


def test_a_429_with_retry_after_fails_for_later_and_holds_the_host_back() -> None:
    time = FakeTime()
    with FakeFeeds() as feeds:
        url = feeds.put("/toc.xml", body=FEED)
        fetcher = fetcher_on(time)
        feeds.fail_next(status=429, retry_after=120)
        busy = fetcher.fetch(url=url)
        assert busy == Failed(
            reason="HTTP 429 (Too Many Requests), asked to wait 120 s",
            retry=True,
            retry_in=120.0,
            status=429,
        )
        assert isinstance(fetcher.fetch(url=url), Body)
        assert time.sleeps == [120.0]  # the next request to the host waited it out


def test_retry_after_as_an_http_date_is_read_against_the_wall_clock() -> None:
    with FakeFeeds() as feeds:
        url = feeds.put("/toc.xml", body=FEED)
        fetcher = fetcher_on(FakeTime(), wall=lambda: 1_700_000_000.0)  # 22:13:20 GMT
        feeds.answer_next(Answer(503, b"", {"Retry-After": "Tue, 14 Nov 2023 22:15:20 GMT"}))
        feeds.answer_next(Answer(503, b"", {"Retry-After": "soon"}))  # unreadable: the backoff
        dated = fetcher.fetch(url=url)
        unreadable = fetcher.fetch(url=url)
        assert isinstance(dated, Failed) and dated.retry_in == 120.0
        assert isinstance(unreadable, Failed) and unreadable.retry_in == 300.0


def test_without_retry_after_the_backoff_doubles_per_failure_up_to_its_cap() -> None:
    with FakeFeeds() as feeds:
        url = feeds.put("/toc.xml", body=FEED)
        fetcher = fetcher_on(FakeTime(), backoff=Backoff(first=60.0, cap=600.0))
        feeds.fail_next(status=502, times=5)
        waits = [fetcher.fetch(url=url, failures=n) for n in range(5)]
        assert [w.retry_in for w in waits if isinstance(w, Failed)] == [60, 120, 240, 480, 600]
        assert all(isinstance(w, Failed) and w.retry for w in waits)


def test_a_404_is_no_reason_to_come_back_by_itself() -> None:
    with FakeFeeds() as feeds:
        found = fetcher_on(FakeTime()).fetch(url=feeds.url + "/gone.xml")
        assert found == Failed(reason="HTTP 404 (Not Found)", retry=False, status=404)
