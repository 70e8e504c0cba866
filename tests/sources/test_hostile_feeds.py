"""Hostile text in feeds is plain, capped data: markup, mentions, 10,000 characters, emoji."""

from __future__ import annotations

from bot.sources.candidates import MAX_ABSTRACT, MAX_AUTHORS
from bot.sources.feeds import read_feed

HOSTILE = "<@U123> <!channel> @everyone <#C1> *bold* [bold]x[/bold] 🧪🔬👩🏽‍🔬"


def _rss(*, title: str, description: str, creator: str = "Ada Lovelace") -> bytes:
    return (
        '<?xml version="1.0" encoding="UTF-8"?>'
        '<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/" '
        'xmlns:prism="http://prismstandard.org/namespaces/basic/2.0/"><channel><title>Journal</title>'
        f"<item><title>{title}</title><link>https://journal.example/a1</link>"
        f"<description>{description}</description><dc:creator>{creator}</dc:creator>"
        "<prism:doi>10.1234/ABC.5</prism:doi><pubDate>Mon, 02 Sep 2024 08:00:00 +0900</pubDate>"
        "</item></channel></rss>"
    ).encode()


def test_html_markup_is_stripped_to_text_and_mentions_stay_literal_text() -> None:
    title = "&lt;script&gt;alert(1)&lt;/script&gt;&lt;b&gt;Bold&lt;/b&gt; " + HOSTILE.replace(
        "<", "&lt;"
    )
    (paper,) = read_feed(
        data=_rss(title=title, description="&lt;p&gt;One&lt;/p&gt;&lt;p&gt;Two&lt;/p&gt;"),
        source="s",
    ).candidates
    assert "<b>" not in paper.title and "Bold" in paper.title
    # An escaped "<@U123>" reads as a tag and goes with the markup; the rest stays literal text
    # (each platform renders it inert), emoji and their joiners whole.
    assert "<" not in paper.title and "@everyone *bold* [bold]x[/bold]" in paper.title
    assert paper.title.endswith("🧪🔬👩🏽\u200d🔬")
    assert paper.abstract == "One Two"
    assert paper.doi == "10.1234/abc.5" and paper.url == "https://journal.example/a1"


def test_prism_doi_and_the_feeds_own_time_zone_day() -> None:
    (paper,) = read_feed(data=_rss(title="T", description="D"), source="s").candidates
    assert str(paper.announced) == "2024-09-02"  # 08:00 in Tokyo is the 1st in UTC


def test_ten_thousand_characters_are_capped_per_field() -> None:
    long = "word " * 2_000 + "🧪" * 5_000
    authors = ", ".join(f"Author{i} Name" for i in range(2_000))
    (paper,) = read_feed(
        data=_rss(title=long, description=long * 3, creator=authors), source="s"
    ).candidates
    assert len(paper.title) <= 300 and paper.title.endswith("…")
    assert len(paper.abstract) <= MAX_ABSTRACT
    assert len(paper.authors) <= MAX_AUTHORS


def test_dc_identifier_doi_and_pubmed_style_entry() -> None:
    feed = (
        '<?xml version="1.0"?><rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/">'
        "<channel><title>pubmed: search</title><item><title>Café crème kinetics</title>"
        "<link>https://pubmed.ncbi.nlm.nih.gov/123/</link><description>Abstract text.</description>"
        "<dc:identifier>pmid:123</dc:identifier><dc:identifier>doi:10.1000/XYZ</dc:identifier>"
        "<dc:date>2024-05-06</dc:date></item></channel></rss>"
    ).encode()
    (paper,) = read_feed(data=feed, source="pubmed").candidates
    assert paper.title == "Café crème kinetics"
    assert str(paper.announced) == "2024-05-06"


def test_an_entry_without_a_title_or_id_is_left_out() -> None:
    feed = (
        b'<rss version="2.0"><channel><title>t</title><item><title> </title></item></channel></rss>'
    )
    read = read_feed(data=feed, source="s")
    assert read.candidates == () and read.entries == 1
