"""Author names between the stored form and RIS's and CSL-JSON's split forms: any cleaned name
comes back whole, through the functions and through a whole export and import."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.domain import PaperDraft, Rejection
from bot.export_formats import render
from bot.ingest import parse
from bot.ingest.drafts import build_draft, clean_authors
from bot.ingest.names import csl_name, csl_stored, family_given, ris_name, ris_stored
from tests.ingest.test_roundtrip import stored

PROPERTY = settings(
    max_examples=150, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow]
)
# Names as the store holds them: cleaned (one line, single spaces, no outer ",;" or spaces).
NAMES = (
    st.text(min_size=1, max_size=30)
    .map(lambda t: next(iter(clean_authors(authors=[t.replace("\\", "")])), ""))
    # RIS's "Last, First, Suffix" has no room for a space before the comma: documented.
    .filter(lambda name: name and " ," not in name)
)
FILES = {"ris": "export.ris", "csl-json": "export.json", "bibtex": "export.bib", "csv": "x.csv"}


@pytest.mark.parametrize(
    ("name", "ris", "csl"),
    [
        ("Ana Silva", "Silva, Ana", {"family": "Silva", "given": "Ana"}),
        ("Ana van der Berg", "Berg, Ana van der", {"family": "Berg", "given": "Ana van der"}),
        ("Plato", "Plato", {"literal": "Plato"}),
        ("John Smith, Jr.", "Smith, John, Jr.", {"literal": "John Smith, Jr."}),
        ("Plato, the Elder", "Plato, , the Elder", {"literal": "Plato, the Elder"}),
    ],
)
def test_each_form(name: str, ris: str, csl: dict[str, str]) -> None:
    assert (ris_name(name=name), csl_name(name=name)) == (ris, csl)
    assert (ris_stored(value=ris), csl_stored(value=csl)) == (name, name)


def test_foreign_forms_read_as_people_write_them() -> None:
    assert ris_stored(value="Smith, J. R.") == "J. R. Smith"
    assert ris_stored(value="World Health Organization") == "World Health Organization"
    particles = {"given": "Ludwig", "non-dropping-particle": "van", "family": "Beethoven"}
    assert csl_stored(value=particles) == "Ludwig van Beethoven"
    assert csl_stored(value={"family": "King", "given": "Martin", "suffix": "Jr."}) == (
        "Martin King, Jr."
    )
    assert csl_stored(value={"given": 7, "family": ["x"]}) == ""  # not text: nothing
    assert family_given(name="Ana, B") is None


@PROPERTY
@given(name=NAMES)
def test_any_stored_name_comes_back_whole(name: str) -> None:
    assert ris_stored(value=" ".join(ris_name(name=name).split())) == name
    assert csl_stored(value=csl_name(name=name)) == name


@PROPERTY
@given(
    title=st.text(max_size=60),
    abstract=st.text(max_size=60),
    authors=st.lists(st.text(max_size=25), max_size=4),
    fmt=st.sampled_from(["ris", "csl-json"]),
)
def test_any_imported_paper_survives_ris_and_csl_json(
    title: str, abstract: str, authors: list[str], fmt: str
) -> None:
    # What an import would have stored (backslashes aside: clean_text of "\\{" is not a
    # fixed point, test_properties says so), with a list and a reference to carry too.
    draft = build_draft(
        origin="x",
        title=title.replace("\\", ""),
        abstract=abstract.replace("\\", ""),
        authors=[a.replace("\\", "") for a in authors],
    )
    if isinstance(draft, Rejection) or any(" ," in name for name in draft.authors):
        return  # nothing to export, or the one loss the README names
    draft = replace(draft, reference=True, list_name="Related papers: a list")
    [again], rejections = parse(
        path=FILES[fmt], text=render(records=stored(drafts=[draft]), fmt=fmt)
    )
    assert rejections == []
    assert _fields(draft=again) == _fields(draft=draft)


def _fields(*, draft: PaperDraft) -> tuple[object, ...]:
    """What an export carries and an import reads back."""
    return (
        draft.title,
        draft.abstract,
        draft.authors,
        draft.url,
        draft.arxiv_id,
        draft.doi,
        draft.reference,
        draft.list_name,
        draft.title_derived,
    )
