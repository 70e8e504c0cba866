"""The fetcher is robust against what a source sends: a body over the size cap (declared,
undeclared or gzip-inflated) fails with nothing parsed, a slow or stalled answer fails within
the timeout, a malformed or cut-off feed comes back as bytes for the reader, gzip is undone."""

from __future__ import annotations

import gzip
import time as real_time
from datetime import date

from bot.ports.fetching import Body, Failed
from bot.sources.feeds import read_feed
from tests.fakesources import Answer, FakeArxiv, FakeFeeds
from tests.sources.faketime import FakeTime, fetcher_on

MONDAY = date(2024, 9, 2)
TOO_BIG = "the answer is larger than 5,000 bytes: nothing was read"


def test_a_body_over_the_cap_fails_whether_its_length_is_declared_or_not() -> None:
    with FakeFeeds() as feeds:
        fetcher = fetcher_on(FakeTime(), max_bytes=5_000)
        declared = fetcher.fetch(url=feeds.oversized("/a.xml", size=5_001))
        streamed = fetcher.fetch(url=feeds.oversized("/b.xml", size=50_000, length=False))
        exact = fetcher.fetch(url=feeds.oversized("/c.xml", size=5_000, length=False))
        assert declared == Failed(reason=TOO_BIG, retry=False)
        assert streamed == Failed(reason=TOO_BIG, retry=False)
        assert isinstance(exact, Body) and len(exact.data) == 5_000


def test_gzip_is_undone_and_a_gzip_bomb_stops_at_the_cap() -> None:
    feed = b'<?xml version="1.0"?><rss version="2.0"><channel><title>Z</title></channel></rss>'
    with FakeFeeds() as feeds:
        fetcher = fetcher_on(FakeTime(), max_bytes=5_000)
        feeds.answer_next(Answer(200, gzip.compress(feed), {"Content-Encoding": "gzip"}))
        feeds.answer_next(
            Answer(200, gzip.compress(b" " * 10_000_000), {"Content-Encoding": "gzip"})
        )
        feeds.answer_next(Answer(200, gzip.compress(feed)[:-12], {"Content-Encoding": "gzip"}))
        feeds.answer_next(Answer(200, feed, {"Content-Encoding": "br"}))
        unzipped = fetcher.fetch(url=feeds.url + "/z.xml")
        bomb = fetcher.fetch(url=feeds.url + "/z.xml")
        cut = fetcher.fetch(url=feeds.url + "/z.xml")
        unasked = fetcher.fetch(url=feeds.url + "/z.xml")
        assert isinstance(unzipped, Body) and unzipped.data == feed
        assert bomb == Failed(reason=TOO_BIG, retry=False)
        assert isinstance(cut, Failed) and cut.retry and "cut off" in cut.reason
        assert unasked == Failed(reason="an answer encoded as 'br'", retry=False)


def test_a_dripping_body_and_a_stalled_answer_fail_within_the_timeout() -> None:
    with FakeFeeds() as feeds:
        url = feeds.oversized("/slow.xml", size=4_000)
        fetcher = fetcher_on(FakeTime(), timeout=0.5)
        for slow_down in (
            lambda: feeds.drip_next(chunk=64, every=0.1),  # 63 drips, over 6 s, each read in time
            lambda: feeds.stall_next(seconds=30),  # no headers at all
        ):
            slow_down()
            start = real_time.monotonic()
            slow = fetcher.fetch(url=url, failures=1)
            assert real_time.monotonic() - start < 3
            assert slow == Failed(reason="no answer within 0.5 s", retry=True, retry_in=600.0)


def test_a_body_cut_short_of_its_content_length_is_retried_later() -> None:
    with FakeFeeds() as feeds:
        feeds.answer_next(Answer(200, b"<rss>", {"Content-Length": "9999"}, length=False))
        cut = fetcher_on(FakeTime()).fetch(url=feeds.url + "/cut.xml")
        assert isinstance(cut, Failed) and cut.retry and "cut off" in cut.reason


def test_malformed_truncated_and_html_answers_come_back_as_bytes_for_the_reader() -> None:
    with FakeArxiv(today=MONDAY) as arxiv:
        fetcher = fetcher_on(FakeTime())
        for how in ("malformed", "truncated", "html"):
            arxiv.break_next(how)
            got = fetcher.fetch(url=arxiv.rss_url("cs.AI"))
            assert isinstance(got, Body) and got.data
            assert read_feed(data=got.data, source="arxiv:cs.AI").problems, how
