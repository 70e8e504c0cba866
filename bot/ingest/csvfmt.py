"""CSV with a header row: columns found by name, whatever their order or case."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator

from bot.domain import PaperDraft, Rejection
from bot.ingest.drafts import Parsed, build_draft, file_problem, origin_at, split_authors
from bot.ingest.exported import is_true, with_exported

_COLUMNS = {
    "title": ("title", "name", "paper", "paper_title"),
    "authors": ("authors", "author", "by"),
    "abstract": ("abstract", "summary", "description"),
    "url": ("url", "link", "href"),
    "arxiv_id": ("arxiv_id", "arxiv", "arxivid", "eprint"),
    "doi": ("doi",),
    # Our own export's columns (bot/ingest/exported.py); a file without them imports as before.
    "status": ("status",),
    "list": ("list", "reading_list"),
    "title_derived": ("title_derived",),
}
# Columns that can name a paper on their own; "authors" alone cannot.
_NAMING = frozenset({"title", "abstract", "url", "arxiv_id", "doi"})
_DELIMITERS = ",;\t"
# A spreadsheet runs a cell starting with one of these as a formula (=HYPERLINK, =cmd|...).
FORMULA_STARTS = "=+-@\t\r"
# Our export guards such a cell with one leading apostrophe (OWASP's advice), and a cell whose
# leading apostrophes come before one gets one more; the importer takes exactly one apostrophe
# off a cell of that guarded shape. So guard then unguard gives every cell back unchanged: a
# title really starting "-", "=" or "'=" survives the round trip. (A foreign CSV's "'-x" reads
# back as "-x": the apostrophe is what a spreadsheet hides there too.)
_FORMULA_RE = re.compile(f"'*[{re.escape(FORMULA_STARTS)}]")
_GUARDED_RE = re.compile(f"'+[{re.escape(FORMULA_STARTS)}]")


def guard_cell(*, text: str) -> str:
    """`text` safe to open in a spreadsheet: an apostrophe before a formula's first character."""
    return "'" + text if _FORMULA_RE.match(text) else text


def unguard_cell(*, text: str) -> str:
    """`text` as it was before guard_cell: one leading apostrophe off a guarded cell."""
    return text[1:] if _GUARDED_RE.match(text) else text


def _delimiter(*, text: str) -> str:
    """The delimiter the header line uses most: comma, semicolon or tab."""
    header = next((line for line in text.splitlines() if line.strip()), "")
    header = re.sub(r'"[^"]*"', "", header)
    return max(_DELIMITERS, key=header.count)


def _column_map(*, header: list[str]) -> dict[str, int]:
    """Which column index holds each known field."""
    names = [re.sub(r"[\s-]+", "_", cell.strip().strip("\ufeff").lower()) for cell in header]
    found: dict[str, int] = {}
    for field, aliases in _COLUMNS.items():
        for alias in aliases:
            if alias in names:
                found[field] = names.index(alias)
                break
    return found


def _rows(*, text: str) -> Iterator[tuple[int, list[str] | csv.Error]]:
    """(first physical line, cells or the error) of each record; quoted newlines kept."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=_delimiter(text=text), strict=True)
    done = 0
    while True:
        try:
            row: list[str] | csv.Error = next(reader)
        except StopIteration:
            return
        except csv.Error as error:
            row = error
        yield done + 1, row
        if reader.line_num == done:
            return
        done = reader.line_num


def _authors(*, text: str, ours: bool) -> tuple[str, ...]:
    """The names of an authors cell: our own export's (it has a title_derived column) joined
    with "; " alone, so "John Smith, Jr." or "Barnes and Noble" stays one name; anyone else's
    split on every separator people use."""
    if not ours:
        return split_authors(text=text)
    return tuple(name.strip() for name in text.split(";") if name.strip())


def _record(
    *, row: list[str], columns: dict[str, int], width: int, origin: str
) -> PaperDraft | Rejection:
    """A draft from one data row, or a rejection when it is wider than the header."""
    if len(row) > width and any(cell.strip() for cell in row[width:]):
        return Rejection(
            origin=origin, reason=f"row has {len(row)} fields but the header has {width}"
        )

    def cell(*, field: str) -> str:
        """The row's text in `field`'s column; "" when it has no such column or cell."""
        index = columns.get(field)
        return unguard_cell(text=row[index]) if index is not None and index < len(row) else ""

    draft = build_draft(
        origin=origin,
        title=cell(field="title"),
        abstract=cell(field="abstract"),
        authors=_authors(text=cell(field="authors"), ours="title_derived" in columns),
        url=cell(field="url"),
        arxiv_id=cell(field="arxiv_id"),
        doi=cell(field="doi"),
    )
    if isinstance(draft, Rejection):
        return draft
    return with_exported(
        draft=draft,
        status=cell(field="status"),
        list_name=cell(field="list"),
        title_derived=is_true(text=cell(field="title_derived")),
    )


def parse_csv(*, path: str, text: str) -> Parsed:
    """Drafts and rejections for a CSV file with a header row."""
    problem = file_problem(path=path, text=text)
    if problem is not None:
        return [], [problem]
    drafts: list[PaperDraft] = []
    rejections: list[Rejection] = []
    columns: dict[str, int] | None = None
    width = 0
    for line, row in _rows(text=text):
        origin = origin_at(path=path, line=line)
        if isinstance(row, csv.Error):
            rejections.append(Rejection(origin=origin, reason=f"broken CSV row: {row}"))
            continue
        if not any(cell.strip() for cell in row):
            continue
        if columns is None:
            columns, width = _column_map(header=row), len(row)
            if not set(columns) & _NAMING:
                found = ", ".join(cell.strip() for cell in row)
                found = found if len(found) <= 200 else found[:199] + "…"
                reason = f"CSV has no 'title' or 'abstract' column (columns: {found})"
                return [], [Rejection(origin=origin, reason=reason)]
            continue
        result = _record(row=row, columns=columns, width=width, origin=origin)
        if isinstance(result, PaperDraft):
            drafts.append(result)
        else:
            rejections.append(result)
    return drafts, rejections
