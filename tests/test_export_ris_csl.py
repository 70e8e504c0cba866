"""RIS read back by rispy and CSL-JSON checked against the CSL data schema (both independent of
our parsers), and hostile text that stays a value: no RIS tag or record from a newline."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import rispy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft7Validator

from bot.domain import PaperRecord, PaperStatus
from bot.export_formats import render
from bot.ingest import parse
from tests.test_export_formats import PAPER, RECORD

SCHEMA = json.loads((Path(__file__).parent / "data" / "csl" / "csl-data.json").read_text("utf-8"))
CSL = Draft7Validator(SCHEMA)
ARBITRARY = settings(
    max_examples=80, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow]
)
BARE = replace(PAPER, id=8, authors=(), abstract="", url=None, arxiv_id=None, doi=None)
LISTED = PaperRecord(
    paper=replace(PAPER, status=PaperStatus.REFERENCE, title_derived=True), list_name="Reading: X"
)
INJECTIONS = [
    "A title\nER  - \n\nTY  - JOUR\nTI  - An injected record",
    "A title\r\nAU  - Mallory, Eve\r\nUR  - https://evil.example/",
    "Line\u2028separator\u2029and\x85next\x0bline\x0cfeed\x1cfile",
    '<!channel> @here <script>alert(1)</script> =HYPERLINK("x") 🧪',
    "x" * 10_000,
]


def test_rispy_reads_every_field() -> None:
    [entry] = rispy.loads(render(records=[RECORD], fmt="ris"))
    assert entry["type_of_reference"] == "UNPB"
    assert entry["title"] == PAPER.title
    assert entry["authors"] == ["Silva, Ana", "Li, Bo"]
    assert entry["abstract"] == PAPER.abstract
    assert entry["doi"] == PAPER.doi
    assert entry["urls"] == [PAPER.url]
    assert (entry["year"], entry["date"]) == ("2024", "2024/01")  # arXiv 2401: January 2024
    assert entry["accession_number"] == "arXiv:2401.00001"
    assert entry["custom1"] == "paperclub-status: posted"


def test_rispy_reads_our_fields_and_a_paper_with_nothing_but_a_title() -> None:
    bare = PaperRecord(paper=BARE)
    listed, plain = rispy.loads(render(records=[LISTED, bare], fmt="ris"))
    assert listed["custom1"] == "paperclub-status: reference"
    assert listed["custom2"] == "paperclub-list: Reading: X"
    assert listed["custom3"] == "paperclub-title-derived: true"
    assert plain["type_of_reference"] == "GEN"
    assert set(plain) == {"type_of_reference", "title", "custom1"}


def test_csl_json_is_valid_against_the_schema() -> None:
    bare = PaperRecord(paper=BARE)
    items = json.loads(render(records=[RECORD, LISTED, bare], fmt="csl-json"))
    assert list(CSL.iter_errors(items)) == []
    first = items[0]
    assert first["type"] == "article"
    assert first["author"] == [
        {"family": "Silva", "given": "Ana"},
        {"family": "Li", "given": "Bo"},
    ]
    assert first["issued"] == {"date-parts": [[2024, 1]]}
    assert (first["DOI"], first["URL"], first["number"]) == (
        PAPER.doi,
        PAPER.url,
        "arXiv:2401.00001",
    )
    assert items[1]["custom"] == {
        "paperclub-status": "reference",
        "arxiv-id": "2401.00001",
        "paperclub-list": "Reading: X",
        "paperclub-title-derived": True,
    }
    assert items[2] == {
        "type": "document",
        "id": "paperclub-8",
        "title": PAPER.title,
        "custom": {"paperclub-status": "posted"},
    }


def test_names_that_are_no_first_last_pair_are_literal_in_csl_and_whole_in_ris() -> None:
    authors = ("Plato", "John Smith, Jr.", "Barnes and Noble")
    record = PaperRecord(paper=replace(PAPER, authors=authors))
    [item] = json.loads(render(records=[record], fmt="csl-json"))
    assert item["author"] == [
        {"literal": "Plato"},
        {"literal": "John Smith, Jr."},
        {"family": "Noble", "given": "Barnes and"},
    ]
    [entry] = rispy.loads(render(records=[record], fmt="ris"))
    assert entry["authors"] == ["Plato", "Smith, John, Jr.", "Noble, Barnes and"]
    for fmt, name in (("ris", "x.ris"), ("csl-json", "x.json")):
        [draft], _ = parse(path=name, text=render(records=[record], fmt=fmt))
        assert draft.authors == authors


def test_hostile_text_stays_one_value_of_one_record() -> None:
    records = [
        PaperRecord(
            paper=replace(PAPER, id=i, title=text, abstract=text, authors=(text,)),
            list_name=text,
        )
        for i, text in enumerate(INJECTIONS)
    ]
    ris = render(records=records, fmt="ris")
    entries = rispy.loads(ris)
    assert len(entries) == len(INJECTIONS)
    for entry, text in zip(entries, INJECTIONS, strict=True):
        assert entry["title"] == " ".join(text.split())
        assert len(entry["authors"]) == 1
        assert "Mallory, Eve" not in entry["authors"]
        assert entry["urls"] == [PAPER.url]
    # Every line is a tag line or the blank line between records: no value began a line.
    assert all(line[:6].endswith("  - ") or not line for line in ris.split("\n"))
    ours, rejections = parse(path="hostile.ris", text=ris)
    assert rejections == [] and len(ours) == len(INJECTIONS)
    items = json.loads(render(records=records, fmt="csl-json"))
    assert list(CSL.iter_errors(items)) == []
    assert [item["title"] for item in items] == INJECTIONS  # JSON escapes; nothing to collapse


@ARBITRARY
@given(
    title=st.text(min_size=1, max_size=80),
    names=st.lists(st.text(min_size=1, max_size=30), max_size=3),
)
def test_any_text_makes_one_rispy_record_and_a_valid_csl_item(title: str, names: list[str]) -> None:
    record = PaperRecord(paper=replace(PAPER, title=title, abstract=title, authors=tuple(names)))
    entries = rispy.loads(render(records=[record, RECORD], fmt="ris"))
    assert len(entries) == 2 and entries[1]["title"] == PAPER.title
    assert entries[0].get("title", "") == " ".join(title.split())
    assert list(CSL.iter_errors(json.loads(render(records=[record], fmt="csl-json")))) == []
