"""What the project exports (JSON, CSV, BibTeX) imports back to the same papers.

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
                status=PaperStatus.QUEUED,
            )
        )
        for i, d in enumerate(drafts, start=1)
    ]


def fields(*, draft: PaperDraft) -> tuple[object, ...]:
    """The fields an export carries."""
    return (draft.title, draft.abstract, draft.authors, draft.url, draft.arxiv_id, draft.doi)


@pytest.mark.parametrize("fmt", EXPORT_FORMATS)
def test_exports_import_back_unchanged(fmt: str) -> None:
    sample, _ = parse(path=str(SAMPLE), text=SAMPLE.read_text("utf-8"))
    drafts = sample + EXTRA
    text = render(records=stored(drafts=drafts), fmt=fmt)
    again, rejections = parse(path=f"export.{'bib' if fmt == 'bibtex' else fmt}", text=text)
    assert rejections == []
    assert [fields(draft=d) for d in again] == [fields(draft=d) for d in drafts]
    # Same keys, so importing an export into the same database adds nothing.
    for before, after in zip(drafts, again, strict=True):
        assert set(dedupe_keys(draft=before)) & set(dedupe_keys(draft=after))
