"""Crossref /works answers read into candidates: a real journal-by-ISSN page, and broken ones."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

from bot.sources.crossref import read_crossref

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "sources" / "crossref_journal_works.json"


def test_journal_works_page_gives_titles_authors_jats_free_abstracts_and_dates() -> None:
    read = read_crossref(data=SAMPLE.read_bytes(), source="crossref:2167-8359")
    assert read.problems == () and len(read.candidates) == 4
    first, spider, plants, _ = read.candidates
    assert first.doi == "10.7717/peerj.616" and first.abstract == ""
    assert first.announced == date(2014, 10, 9) and first.url == "https://doi.org/10.7717/peerj.616"
    # Titles carry <i> markup and line breaks; abstracts are JATS.
    assert spider.title == (
        "Ecology and life history of Meta bourneti (Araneae: Tetragnathidae) "
        "from Monte Albo (Sardinia, Italy)"
    )
    assert spider.abstract.startswith("The orb-weaver spider Meta bourneti Simon 1922")
    assert "jats" not in spider.abstract and "<" not in spider.abstract
    assert plants.authors[:2] == ("Chaodong Yang", "Xia Zhang")
    assert all(c.source == "crossref:2167-8359" and c.arxiv_id is None for c in read.candidates)


def test_a_single_work_answer_reads_too() -> None:
    page = json.loads(SAMPLE.read_bytes())
    single = {"status": "ok", "message-type": "work", "message": page["message"]["items"][2]}
    (paper,) = read_crossref(data=json.dumps(single).encode(), source="c").candidates
    assert paper.doi == "10.7717/peerj.7288"


def test_jats_heading_hostile_text_and_odd_dates() -> None:
    work = {
        "DOI": "10.1234/X",
        "title": ["<b>Bold</b> 🧪 <@U1>"],
        "abstract": (
            "<jats:title>Abstract</jats:title>"
            "<jats:p>Real <jats:italic>words</jats:italic>.</jats:p>"
        ),
        "author": [{"given": "Ēriks", "family": "Kupče"}, {"name": "The Consortium"}, "junk"],
        "published": {"date-parts": [["x"]]},
        "issued": {"date-parts": [[2021, 13]]},
    }
    answer = {
        "message-type": "work-list",
        "message": {"items": [work, {"title": ["no doi"]}, {"title": ["T"], "DOI": "10.1/x"}, 7]},
    }
    read = read_crossref(data=json.dumps(answer).encode(), source="c")
    (paper,) = read.candidates
    assert paper.abstract == "Real words."
    assert paper.authors == ("Ēriks Kupče", "The Consortium")
    assert paper.doi == "10.1234/x" and "<b>" not in paper.title
    assert read.problems == ("3 works without a title or DOI were skipped",)


def test_not_crossref_is_a_problem_never_a_traceback() -> None:
    for data in (
        b"",
        b"<html>",
        b"[1, 2]",
        b'{"message": "x"}',
        b'{"message": {"items": 3}}',
        b"[" * 100_000,
    ):
        read = read_crossref(data=data, source="c")
        assert read.candidates == () and read.problems, data
