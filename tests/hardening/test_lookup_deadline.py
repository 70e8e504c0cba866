"""A look-up's timeout bounds the whole request. The reported server sent a byte a second to a
3 s timeout and held the call for 20 s: every read got its byte in time, so no socket timeout
ever tripped. Here the same drip, six times faster (a byte every 0.1 s against a 0.5 s timeout),
in the headers and in the body, must end the call within about the timeout."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from bot.enrich.fetch import Fetcher, Unreachable
from bot.lookup import HttpLookup
from bot.ports import LookupFailed
from tests.hardening.servers import drip_server

TIMEOUT = 0.5
GAP = 0.1  # shorter than the timeout: a per-read timeout never trips
BODY = b'{"message": {"title": ["Slow"], "DOI": "10.1000/slow"}}' + b" " * 200
HEAD = b"HTTP/1.0 200 OK\r\nContent-Type: application/json\r\n"
# (sent at once, dripped): 200+ bytes at 10 a second would take over 20 s in all.
DRIPS = {
    "headers": (b"", HEAD + b"X-Pad: " + b"." * 200 + b"\r\n\r\n" + BODY),
    "body": (HEAD + f"Content-Length: {len(BODY)}\r\n\r\n".encode(), BODY),
}


def _timed(call: Callable[[], object]) -> tuple[BaseException, float]:
    """What the call raised and how long it took."""
    start = time.monotonic()
    with pytest.raises((LookupFailed, Unreachable)) as caught:
        call()
    return caught.value, time.monotonic() - start


@pytest.mark.parametrize("phase", sorted(DRIPS))
def test_a_dripping_crossref_fails_the_add_within_the_timeout(phase: str) -> None:
    at_once, dripped = DRIPS[phase]
    with drip_server(sent_at_once=at_once, dripped=dripped, gap=GAP) as slow:
        lookup = HttpLookup(arxiv_url=slow.url + "/q", crossref_url=slow.url, timeout=TIMEOUT)
        error, took = _timed(lambda: lookup.by_doi(doi="10.1000/slow"))
        assert str(error) == "Crossref did not answer within 0.5 s"
        assert took < TIMEOUT + 2
        assert slow.requests == 1
        assert slow.hung_up.wait(10)  # the bot closed its end, it did not leave it open


@pytest.mark.parametrize("phase", sorted(DRIPS))
def test_a_dripping_arxiv_fails_enrichment_within_the_timeout(phase: str) -> None:
    at_once, dripped = DRIPS[phase]
    with drip_server(sent_at_once=at_once, dripped=dripped, gap=GAP) as slow:
        fetcher = Fetcher(user_agent="PaperClub-test", timeout=TIMEOUT)
        error, took = _timed(
            lambda: fetcher.get(service="arxiv", url=slow.url + "/api/query?x=1", read=str)
        )
        assert str(error) == "arXiv could not be reached: no answer within 0.5 s"
        assert took < TIMEOUT + 2
        assert slow.hung_up.wait(10)


def test_a_quick_answer_still_arrives_whole() -> None:
    # The drip's gap is 0: the deadline watches the request but cuts nothing short.
    at_once, dripped = DRIPS["body"]
    with drip_server(sent_at_once=at_once + dripped, dripped=b"", gap=0) as quick:
        fetcher = Fetcher(user_agent="PaperClub-test", timeout=5)
        body = fetcher.get(service="crossref", url=quick.url + "/works/x", read=str)
        assert body == BODY.decode()
