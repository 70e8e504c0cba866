"""The RIS export: one record per paper, tags a reference manager reads (TY, TI, AU, AB, PY,
DA, DO, UR, AN) and our own fields in custom tags (C1-C3) that they keep and we read back."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from bot.domain import PaperRecord
from bot.ingest.arxiv import arxiv_month
from bot.ingest.exported import BIB_LIST, BIB_STATUS, BIB_TITLE_DERIVED
from bot.ingest.names import ris_name

# RIS has no tag of its own for these, so each goes in a custom tag as "name: value".
RIS_CUSTOM = {BIB_STATUS: "C1", BIB_LIST: "C2", BIB_TITLE_DERIVED: "C3"}


def ris_value(*, text: str) -> str:
    """`text` on one line: every run of whitespace (newlines, CR, U+2028, form feeds...) one
    space, so a value can never start a line of its own ("ER  - " ends a record early, a tag
    adds a field): a hostile title stays a title."""
    return " ".join(text.split())


def _tags(*, record: PaperRecord) -> Iterator[tuple[str, str]]:
    """(tag, value) of one record, in the order RIS readers expect (TY first, ER last)."""
    paper = record.paper
    yield "TY", "UNPB" if paper.arxiv_id else "GEN"  # a preprint; else a generic reference
    yield "TI", paper.title
    for name in paper.authors:
        yield "AU", ris_name(name=name)
    yield "AB", paper.abstract
    month = arxiv_month(arxiv_id=paper.arxiv_id) if paper.arxiv_id else None
    if month:
        yield "PY", str(month[0])
        yield "DA", f"{month[0]:04d}/{month[1]:02d}"
    yield "DO", paper.doi or ""
    yield "UR", paper.url or ""
    yield "AN", f"arXiv:{paper.arxiv_id}" if paper.arxiv_id else ""
    yield RIS_CUSTOM[BIB_STATUS], f"{BIB_STATUS}: {paper.status.value}"
    if record.list_name:
        yield RIS_CUSTOM[BIB_LIST], f"{BIB_LIST}: {record.list_name}"
    if paper.title_derived:
        yield RIS_CUSTOM[BIB_TITLE_DERIVED], f"{BIB_TITLE_DERIVED}: true"


def to_ris(*, records: Sequence[PaperRecord]) -> str:
    """RIS ("XX  - value" lines, LF-ended; tags with no value left out), records apart by a
    blank line."""
    out: list[str] = []
    for record in records:
        for tag, value in _tags(record=record):
            text = ris_value(text=value)
            if text:
                out.append(f"{tag}  - {text}\n")
        out.append("ER  - \n\n")
    return "".join(out)
