"""Feeds read into candidates: real arXiv, arXiv API and bioRxiv samples, and broken ones."""

from __future__ import annotations

import time
from datetime import date
from pathlib import Path

from bot.sources.feeds import read_feed

DATA = Path(__file__).resolve().parents[1] / "data" / "sources"


def _sample(name: str) -> bytes:
    return (DATA / name).read_bytes()


def test_arxiv_rss_announcement_is_a_replace_cross_with_its_version_and_doi() -> None:
    read = read_feed(data=_sample("arxiv_rss_math_oc.xml"), source="arxiv:math.OC")
    assert read.problems == ()
    (paper,) = read.candidates
    assert paper.title == "Mass concentration in rescaled first order integral functionals"
    assert paper.authors == ("Antonin Monteil", "Paul Pegon")
    assert (paper.arxiv_id, paper.version, paper.doi) == ("2203.01250", 3, "10.5802/jep.257")
    assert paper.announce == "replace-cross" and paper.is_replacement
    assert paper.categories == ("math.AP", "math.OC")
    # Midnight in New York: the UTC date would be right here, but the feed's own zone decides.
    assert paper.announced == date(2024, 8, 23)
    assert paper.abstract.startswith("We consider first order local minimization problems")
    assert "Announce Type" not in paper.abstract and paper.source == "arxiv:math.OC"
    assert paper.url == "https://arxiv.org/abs/2203.01250"


def test_arxiv_atom_announcement_reads_the_same_as_its_rss() -> None:
    rss = read_feed(data=_sample("arxiv_rss_math_oc.xml"), source="s").candidates
    atom = read_feed(data=_sample("arxiv_atom_math_oc.xml"), source="s").candidates
    assert atom == rss


def test_weekend_feed_gives_nothing_and_no_problem() -> None:
    read = read_feed(data=_sample("arxiv_rss_weekend_empty.xml"), source="s")
    assert (read.candidates, read.problems) == ((), ())
    assert read.title == "math.OC updates on arXiv.org"


def test_arxiv_api_entry_and_error() -> None:
    (paper,) = read_feed(data=_sample("arxiv_api_query.xml"), source="api").candidates
    assert (paper.arxiv_id, paper.version, paper.announce) == ("hep-ex/0307015", 1, None)
    assert (
        paper.title
        == "Multi-Electron Production at High Transverse Momenta in ep Collisions at HERA"
    )
    assert paper.authors == ("H1 Collaboration",) and paper.announced == date(2003, 7, 7)
    assert "0.30 ± 0.04" in paper.abstract
    error = read_feed(data=_sample("arxiv_api_error.xml"), source="api")
    assert error.candidates == ()
    assert error.problems == ("arXiv API error: incorrect id format for 1234.12345",)


def test_biorxiv_rdf_feed_gives_doi_and_paired_author_names() -> None:
    (paper,) = read_feed(data=_sample("biorxiv_rdf_bioengineering.xml"), source="bio").candidates
    assert paper.doi == "10.1101/857789" and paper.arxiv_id is None
    assert paper.authors == ("D. Kukla", "A. Crampton", "D. Wood", "S. Khetani")
    assert paper.announced == date(2019, 11, 29) and paper.announce is None
    assert paper.title.startswith("Microscale Collagen") and not paper.title.endswith(" ")


def test_cross_list_and_new_announce_types_from_the_description_alone() -> None:
    feed = _sample("arxiv_rss_math_oc.xml").replace(
        b"<arxiv:announce_type>replace-cross</arxiv:announce_type>", b""
    )
    cross = feed.replace(b"Announce Type: replace-cross", b"Announce Type: cross")
    (paper,) = read_feed(data=cross, source="s").candidates
    assert paper.announce == "cross" and not paper.is_replacement
    odd = feed.replace(b"Announce Type: replace-cross", b"Announce Type: <b>weird</b>")
    assert read_feed(data=odd, source="s").candidates[0].announce is None


def test_truncated_feed_keeps_what_it_read_and_says_so() -> None:
    whole = _sample("arxiv_rss_math_oc.xml")
    item = whole[whole.index(b"<item>") : whole.index(b"</item>") + 7]
    two = whole.replace(item, item + item.replace(b"2203.01250", b"2401.00001"))
    cut = two[: two.rindex(b"<dc:creator>") + 20]
    read = read_feed(data=cut, source="s")
    assert [c.arxiv_id for c in read.candidates][:1] == ["2203.01250"]
    assert len(read.problems) == 1 and "breaks off" in read.problems[0]


def test_malformed_and_empty_inputs_are_problems_not_tracebacks() -> None:
    for data in (
        b"",
        b"   ",
        b"<html><body>Gateway timeout</body></html>",
        b"\x00\xff\xfe garbage",
        b'{"status": "ok"}',
        b"<rss><channel><item><title>x",
    ):
        read = read_feed(data=data, source="s")
        assert read.problems, data
        assert all(isinstance(p, str) and p for p in read.problems)


def test_entity_bomb_does_not_expand_and_external_entities_are_not_read() -> None:
    levels = "".join(f'<!ENTITY e{i} "{("&e" + str(i - 1) + ";") * 10}">' for i in range(1, 9))
    bomb = (
        f'<?xml version="1.0"?><!DOCTYPE rss [<!ENTITY e0 "boom">{levels}]>'
        '<rss version="2.0"><channel><title>t</title><item><title>A &e8; B</title>'
        "<link>https://example.org/a</link></item></channel></rss>"
    ).encode()
    started = time.monotonic()
    read = read_feed(data=bomb, source="s")
    assert time.monotonic() - started < 5
    assert all("boom" not in c.title and len(c.title) < 100 for c in read.candidates)
    xxe = (
        b'<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
        b'<rss version="2.0"><channel><item><title>A &x; B</title></item></channel></rss>'
    )
    assert all("root:" not in c.title for c in read_feed(data=xxe, source="s").candidates)
