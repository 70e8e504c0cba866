"""What the project exports (JSON, CSV, BibTeX, RIS, CSL-JSON) imports back to the same papers.

Stored text has been through clean_text already, so these drafts hold no braces or
backslashes: cleaning is idempotent on such text, which is what makes the round trip.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.domain import Paper, PaperDraft, PaperRecord, PaperStatus
from bot.export_formats import EXPORT_FORMATS, render
from bot.ingest import parse
from bot.ingest.keys import dedupe_keys

SAMPLE = Path(__file__).resolve().parents[2] / "bot" / "data" / "reading-list.txt"
EXTRA = [
    PaperDraft(
        title="Schrödinger’s GPUs – 100% of $5, “quoted”, a_b & c#1",
        abstract="An abstract with ~50% odd characters: (parens)? no; <tags> and … dots.",
        authors=("Ana Silva", "Jörg Müller", "Bo Li"),
        arxiv_id="2401.01234",
        url="https://arxiv.org/abs/2401.01234",
    ),
    PaperDraft(
        title="Names that are no plain First Last",
        abstract="Each stays one name in every format.",
        # A comma (suffix), an "and" (an organisation), one word, particles, a semicolon-free
        # "&": CSV splits on ";" alone, BibTeX braces them, RIS and CSL-JSON write them whole.
        authors=("John Smith, Jr.", "Barnes and Noble", "Plato", "Ana van der Berg", "R & D"),
        arxiv_id="hep-th/9901001",
        url="https://arxiv.org/abs/hep-th/9901001",
    ),
    PaperDraft(
        title="With a DOI",
        doi="10.1145/3458817.3476145",
        url="https://doi.org/10.1145/3458817.3476145",
    ),
]


def stored(*, drafts: list[PaperDraft]) -> list[PaperRecord]:
    """Records as the store would hand them to the exporter."""
    return [
        PaperRecord(
            paper=Paper(
                id=i,
                title=d.title,
                abstract=d.abstract,
                authors=d.authors,
                url=d.url,
                arxiv_id=d.arxiv_id,
                doi=d.doi,
                source=d.origin,
                added_by=None,
                added_at=datetime(2026, 1, 1, tzinfo=UTC),
                position=i,
                status=PaperStatus.REFERENCE if d.reference else PaperStatus.QUEUED,
                title_derived=d.title_derived,
            ),
            list_name=d.list_name or None,
        )
        for i, d in enumerate(drafts, start=1)
    ]


def fields(*, draft: PaperDraft) -> tuple[object, ...]:
    """The fields an export carries."""
    return (draft.title, draft.abstract, draft.authors, draft.url, draft.arxiv_id, draft.doi)


def ours(*, draft: PaperDraft) -> tuple[object, ...]:
    """The fields only our own exports carry: what keeps a list's header paper from posting."""
    return (draft.reference, draft.list_name, draft.title_derived)


def extension(*, fmt: str) -> str:
    """The file name extension an export in `fmt` is saved under."""
    return {"bibtex": "bib", "csl-json": "json"}.get(fmt, fmt)


@pytest.mark.parametrize("fmt", EXPORT_FORMATS)
def test_exports_import_back_unchanged(fmt: str) -> None:
    sample, _ = parse(path=str(SAMPLE), text=SAMPLE.read_text("utf-8"))
    drafts = sample + EXTRA
    text = render(records=stored(drafts=drafts), fmt=fmt)
    again, rejections = parse(path=f"export.{extension(fmt=fmt)}", text=text)
    assert rejections == []
    assert [fields(draft=d) for d in again] == [fields(draft=d) for d in drafts]
    assert [ours(draft=d) for d in again] == [ours(draft=d) for d in drafts]
    # Same keys, so importing an export into the same database adds nothing.
    for before, after in zip(drafts, again, strict=True):
        assert set(dedupe_keys(draft=before)) & set(dedupe_keys(draft=after))


def test_the_sample_lists_header_paper_stays_a_reference() -> None:
    sample, _ = parse(path=str(SAMPLE), text=SAMPLE.read_text("utf-8"))
    # What the round trips above keep is there to keep: one reference, one list, derived titles.
    assert [d.reference for d in sample] == [True] + [False] * (len(sample) - 1)
    assert {d.list_name for d in sample} == {sample[0].list_name} != {""}
    assert any(d.title_derived for d in sample) and not sample[0].title_derived


HOSTILE_LISTS = [
    'Related papers: "quoted", with commas; and {braces}',
    "Related papers: an {unbalanced brace and a } closing one}",
    "Related papers: back\\slash \\emph{x} 100% %7B @misc{key, title={x}}",
    'Related papers: =HYPERLINK("http://x") \'=x -1',
    "Related papers: 🧪 emoji ✨ and <b>markup</b> <!channel> @here",
    "Related papers: " + "long " * 2000,
    "Related papers: a name\nspread over\r\nlines\tand tabs",
]


@pytest.mark.parametrize("fmt", EXPORT_FORMATS)
@pytest.mark.parametrize("name", HOSTILE_LISTS, ids=range(len(HOSTILE_LISTS)))
def test_hostile_list_names_round_trip(fmt: str, name: str) -> None:
    line = " ".join(name.split())  # a header is one line of a text file
    header = parse(path="list.txt", text=f"{line}\n\nAn abstract.\n")
    assert header[1] == [] and len(header[0]) == 2
    # As the text parser stores it: one line of at most 300 characters.
    stored_name = header[0][0].list_name
    assert "\n" not in stored_name and 0 < len(stored_name) <= 300
    drafts = [
        PaperDraft(title="The list's subject", list_name=stored_name, reference=True),
        PaperDraft(title="A paper", abstract="Its abstract.", list_name=name),
    ]
    text = render(records=stored(drafts=drafts), fmt=fmt)
    again, rejections = parse(path=f"export.{extension(fmt=fmt)}", text=text)
    assert rejections == []
    assert [d.reference for d in again] == [True, False]
    # Every format brings back the stored name exactly, and cleans a raw one the same way.
    assert [d.list_name for d in again] == [stored_name, stored_name]
