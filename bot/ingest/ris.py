"""RIS: records from "TY  - " to "ER  - ", as any reference manager writes them, and our own
export's custom tags (C1-C8 holding "paperclub-...: value") read back."""

from __future__ import annotations

import re
from collections.abc import Iterator

from bot.domain import PaperDraft, Rejection
from bot.ingest.arxiv import find_arxiv_id
from bot.ingest.drafts import Parsed, build_draft, collect, file_problem, origin_at
from bot.ingest.exported import BIB_LIST, BIB_STATUS, BIB_TITLE_DERIVED, is_true, with_exported
from bot.ingest.names import ris_stored

# "XX  - value": two spaces and a hyphen (some writers drop the space after it, or pad less).
_TAG_RE = re.compile(r"^([A-Z][A-Z0-9])\s{1,2}-(?: (.*)|)$")
_OURS_RE = re.compile(r"(paperclub-[a-z-]+):\s?(.*)")
Record = dict[str, list[str]]


def _records(*, text: str) -> Iterator[tuple[int, Record]]:
    """(line of its TY, tags and their values) of each record; a line that is no tag carries
    on the value before it (writers that wrap long abstracts), a record without ER ends at
    the next TY or the file's end, and anything outside a record is skipped."""
    record: Record | None = None
    start, last = 0, ""
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip("\ufeff").rstrip()
        found = _TAG_RE.match(line)
        if found is None:
            if record is not None and last and line.strip():
                record[last][-1] = f"{record[last][-1]} {line.strip()}".strip()
            continue
        tag, value = found.group(1), (found.group(2) or "").strip()
        if tag == "TY":
            if record is not None:
                yield start, record
            record, start, last = {}, number, ""
        elif tag == "ER":
            if record is not None:
                yield start, record
            record, last = None, ""
        elif record is not None:
            record.setdefault(tag, []).append(value)
            last = tag
    if record is not None:
        yield start, record


def _first(*, record: Record, tags: tuple[str, ...]) -> str:
    """The first non-empty value among `tags`, in that order of preference."""
    for tag in tags:
        for value in record.get(tag, []):
            if value:
                return value
    return ""


def _ours(*, record: Record) -> dict[str, str]:
    """Our own fields, from any custom tag C1-C8 whose value starts "paperclub-...:"."""
    found: dict[str, str] = {}
    for tag in (f"C{n}" for n in range(1, 9)):
        for value in record.get(tag, []):
            match = _OURS_RE.fullmatch(value)
            if match:
                found.setdefault(match.group(1), match.group(2))
    return found


def _draft(*, record: Record, origin: str) -> PaperDraft | Rejection:
    """A draft from one record."""
    arxiv = ""
    for value in (*record.get("AN", []), *record.get("UR", []), *record.get("DO", [])):
        arxiv = find_arxiv_id(text=value) or ""
        if arxiv:
            break
    draft = build_draft(
        origin=origin,
        title=_first(record=record, tags=("TI", "T1", "CT", "BT")),
        abstract=_first(record=record, tags=("AB", "N2")),
        authors=[ris_stored(value=v) for v in (*record.get("AU", []), *record.get("A1", []))],
        url=_first(record=record, tags=("UR", "L2")),
        arxiv_id=arxiv,
        doi=_first(record=record, tags=("DO",)),
    )
    if isinstance(draft, Rejection):
        return draft
    ours = _ours(record=record)
    return with_exported(
        draft=draft,
        status=ours.get(BIB_STATUS, ""),
        list_name=ours.get(BIB_LIST, ""),
        title_derived=is_true(text=ours.get(BIB_TITLE_DERIVED, "")),
    )


def parse_ris(*, path: str, text: str) -> Parsed:
    """Drafts and rejections for a RIS file."""
    problem = file_problem(path=path, text=text)
    if problem is not None:
        return [], [problem]
    records = list(_records(text=text))
    if not records:
        reason = "no RIS records (a line such as 'TY  - JOUR') found"
        return [], [Rejection(origin=origin_at(path=path, line=1), reason=reason)]
    return collect(
        results=(
            _draft(record=record, origin=origin_at(path=path, line=line))
            for line, record in records
        )
    )
