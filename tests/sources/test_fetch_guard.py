"""The fetcher goes only where it may: loopback refused unless allowed, link-local (cloud
metadata) refused always, a redirect checked like the first URL and followed three times at
most, http and https only."""

from __future__ import annotations

import pytest

from bot.outbound.address import AddressRefused, checked_addresses
from bot.outbound.fetch import PoliteFetcher
from bot.outbound.spacing import HostTurns
from bot.ports.fetching import Body, Failed
from tests.fakesources import Answer, FakeFeeds
from tests.sources.faketime import FakeTime, fetcher_on

FEED = '<?xml version="1.0"?><rss version="2.0"><channel><title>T</title></channel></rss>'


def _moved(to: str, status: int = 302) -> Answer:
    """A redirect to `to`."""
    return Answer(status, b"", {"Location": to})


def test_with_allow_private_off_the_fake_on_127_0_0_1_is_never_asked() -> None:
    time = FakeTime()
    with FakeFeeds() as feeds:
        url = feeds.put("/toc.xml", body=FEED)
        fetcher = PoliteFetcher(turns=HostTurns(clock=time.clock, sleep=time.sleep))
        refused = fetcher.fetch(url=url)
        assert refused == Failed(
            reason="127.0.0.1 resolves to 127.0.0.1, a loopback address: refused", retry=False
        )
        assert fetcher.fetch(url=url.replace("127.0.0.1", "localhost")).retry is False
        assert feeds.requests == []


@pytest.mark.parametrize(
    ("address", "kind"),
    [
        ("10.1.2.3", "a private address"),
        ("192.168.0.1", "a private address"),
        ("fd00::1", "a private address"),
        ("::1", "a loopback address"),
        ("::ffff:127.0.0.1", "a loopback address"),
        ("0.0.0.0", "an unspecified address"),
        ("224.0.0.1", "a multicast address"),
        ("100.64.0.1", "a reserved address"),
    ],
)
def test_every_non_public_kind_of_address_is_refused(address: str, kind: str) -> None:
    with pytest.raises(AddressRefused, match=kind):
        checked_addresses(host=address, port=80, allow_private=False)


def test_link_local_is_refused_even_when_private_addresses_are_allowed() -> None:
    for address in ("169.254.169.254", "fe80::1"):
        with pytest.raises(AddressRefused, match="a link-local address"):
            checked_addresses(host=address, port=80, allow_private=True)
    assert checked_addresses(host="8.8.8.8", port=443, allow_private=False)


def test_a_redirect_to_the_metadata_address_is_refused_before_connecting() -> None:
    with FakeFeeds() as feeds:
        feeds.answer_next(_moved("http://169.254.169.254/latest/meta-data/"))
        refused = fetcher_on(FakeTime(), timeout=5).fetch(url=feeds.url + "/toc.xml")
        assert refused == Failed(
            reason="169.254.169.254 resolves to 169.254.169.254, a link-local address: refused",
            retry=False,
        )


def test_redirects_are_followed_three_times_and_no_more() -> None:
    with FakeFeeds() as feeds:
        feeds.put("/toc.xml", body=FEED)
        fetcher = fetcher_on(FakeTime())
        for hop in ("/a", "/b"):
            feeds.answer_next(_moved(hop, 301))
        feeds.answer_next(_moved(feeds.url + "/toc.xml", 308))
        followed = fetcher.fetch(url=feeds.url + "/old.xml")
        assert isinstance(followed, Body) and followed.url == feeds.url + "/toc.xml"
        for hop in ("/a", "/b", "/c", "/d"):
            feeds.answer_next(_moved(hop))
        assert fetcher.fetch(url=feeds.url + "/old.xml") == Failed(
            reason="more than 3 redirects", retry=False
        )
        assert [r.path for r in feeds.requests][-4:] == ["/old.xml", "/a", "/b", "/c"]


@pytest.mark.parametrize(
    "url", ["file:///etc/passwd", "ftp://example.org/feed", "gopher://x/", "http:///nohost"]
)
def test_only_http_and_https_urls_with_a_host_are_fetched(url: str) -> None:
    refused = fetcher_on(FakeTime()).fetch(url=url)
    assert isinstance(refused, Failed) and refused.retry is False


def test_a_redirect_to_another_scheme_is_refused() -> None:
    with FakeFeeds() as feeds:
        feeds.answer_next(_moved("file:///etc/passwd"))
        refused = fetcher_on(FakeTime()).fetch(url=feeds.url + "/toc.xml")
        assert refused == Failed(reason="only http and https URLs are fetched", retry=False)
