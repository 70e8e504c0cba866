"""arXiv feeds: API Atom results, RSS listings, API errors, and things that are no feed."""

from __future__ import annotations

from bot.domain import Rejection
from bot.ingest.atom import parse_atom

API = """<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:arxiv="http://arxiv.org/schemas/atom">
  <id>https://arxiv.org/api/x</id>
  <title>arXiv Query</title>
  <updated>2024-01-05T00:00:00Z</updated>
  <entry>
    <id>http://arxiv.org/abs/2401.01234v2</id>
    <title>Fast Training of
      Large Models with $O(N^4)$ Tricks</title>
    <summary>  We show that training is fast.
  Really fast.
</summary>
    <author><name>Ada Lovelace</name></author>
    <author><name>Alan Turing</name><arxiv:affiliation>Cambridge</arxiv:affiliation></author>
    <arxiv:doi>10.1145/3458817.3476145</arxiv:doi>
    <link href="http://arxiv.org/abs/2401.01234v2" rel="alternate" type="text/html"/>
    <link title="pdf" href="http://arxiv.org/pdf/2401.01234v2" rel="related"/>
  </entry>
  <entry>
    <id>http://arxiv.org/abs/hep-th/9901001v1</id>
    <title>Old style</title>
    <summary>Strings.</summary>
    <author><name>Ed Witten</name></author>
  </entry>
</feed>
"""

LISTING = """<?xml version='1.0' encoding='UTF-8'?>
<rss xmlns:dc="http://purl.org/dc/elements/1.1/" version="2.0">
  <channel>
    <title>cs.DC updates on arXiv.org</title>
    <link>http://rss.arxiv.org/rss/cs.DC</link>
    <description>cs.DC updates</description>
    <item>
      <title>Pipeline Parallelism Revisited</title>
      <link>https://arxiv.org/abs/2401.05678</link>
      <description>arXiv:2401.05678v1 Announce Type: new
Abstract: Pipelines are &lt;b&gt;great&lt;/b&gt;.&lt;p&gt;Really.&lt;/p&gt;</description>
      <guid isPermaLink="false">oai:arXiv.org:2401.05678v1</guid>
      <dc:creator>Grace Hopper, Barbara Liskov</dc:creator>
    </item>
  </channel>
</rss>
"""


def test_an_api_feed() -> None:
    drafts, rejections = parse_atom(path="q.atom", text=API)
    assert rejections == []
    first, second = drafts
    assert first.title == "Fast Training of Large Models with O(N^4) Tricks"
    assert first.abstract == "We show that training is fast. Really fast."
    assert first.authors == ("Ada Lovelace", "Alan Turing")
    assert first.arxiv_id == "2401.01234"
    assert first.doi == "10.1145/3458817.3476145"
    assert first.url == "https://arxiv.org/abs/2401.01234"
    assert first.origin == "q.atom:6"
    assert (second.arxiv_id, second.origin) == ("hep-th/9901001", "q.atom:19")


def test_a_listing_feed() -> None:
    drafts, rejections = parse_atom(path="l.xml", text=LISTING)
    assert rejections == []
    (draft,) = drafts
    assert draft.title == "Pipeline Parallelism Revisited"
    assert draft.abstract == "Pipelines are great. Really."
    assert draft.authors == ("Grace Hopper", "Barbara Liskov")
    assert draft.arxiv_id == "2401.05678"
    assert draft.origin == "l.xml:7"


def test_an_api_error_entry_is_a_rejection() -> None:
    text = """<?xml version="1.0"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <entry>
    <id>http://arxiv.org/api/errors#incorrect_id_format_for_1234</id>
    <title>Error</title>
    <summary>incorrect id format for 1234</summary>
  </entry>
</feed>"""
    assert parse_atom(path="e.atom", text=text) == (
        [],
        [Rejection("e.atom:3", "arXiv API error: incorrect id format for 1234")],
    )


def test_an_empty_feed_is_no_papers_and_no_complaint() -> None:
    text = '<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>x</title></feed>'
    assert parse_atom(path="e.atom", text=text) == ([], [])


def test_xml_that_is_not_a_feed() -> None:
    for text in ("<html><body><p>hello</p></body></html>", "<foo>bar</foo>"):
        assert parse_atom(path="x.xml", text=text) == (
            [],
            [Rejection("x.xml:1", "not an Atom or RSS feed")],
        )


def test_text_that_is_not_xml() -> None:
    drafts, rejections = parse_atom(path="x.xml", text="just\nsome words, no markup")
    assert drafts == []
    assert len(rejections) == 1
    assert rejections[0].reason.startswith("not an Atom or RSS feed (")


def test_a_truncated_feed_keeps_what_it_has_and_says_where_it_broke() -> None:
    cut = API[: API.index("<entry>", API.index("</entry>"))] + "<entry><title>Half"
    drafts, rejections = parse_atom(path="q.atom", text=cut)
    assert drafts[0].arxiv_id == "2401.01234"
    assert rejections[-1].reason.startswith("feed breaks off here")


def test_a_string_that_looks_like_a_url_or_path_is_not_fetched_or_opened() -> None:
    for text in ("https://arxiv.org/api/query?search_query=all:x", "/etc/hostname"):
        drafts, rejections = parse_atom(path="x.xml", text=text)
        assert drafts == []
        assert rejections[0].reason.startswith("not an Atom or RSS feed")


def test_empty_and_binary() -> None:
    assert parse_atom(path="x.xml", text="") == ([], [Rejection("x.xml:1", "empty file")])
    junk = "\x00<feed>\x01" * 100
    assert parse_atom(path="x.xml", text=junk)[1][0].reason == "binary data, not a text file"
