"""BibTeX via bibtexparser v2: entries to drafts, broken blocks to rejections with lines."""

from __future__ import annotations

import re
from typing import Any

from bibtexparser import model
from bibtexparser.entrypoint import parse_string

from bot.domain import PaperDraft, Rejection
from bot.ingest.arxiv import canonical_arxiv_id, find_arxiv_id
from bot.ingest.clean import clean_text
from bot.ingest.drafts import Parsed, build_draft, file_problem, flip_name, origin_at
from bot.ingest.exported import (
    BIB_LIST,
    BIB_STATUS,
    BIB_TITLE_DERIVED,
    bib_list_name,
    is_true,
    with_exported,
)


def _split_and(*, text: str) -> list[str]:
    """`text` split on " and " outside braces, so {Barnes and Noble} stays one name."""
    parts: list[str] = []
    depth, start = 0, 0
    for match in re.finditer(r"[{}]|\s+and\s+", text, re.IGNORECASE):
        mark = match.group(0)
        if mark == "{":
            depth += 1
        elif mark == "}":
            depth = max(depth - 1, 0)
        elif depth == 0:
            parts.append(text[start : match.start()])
            start = match.end()
    parts.append(text[start:])
    return parts


def _braced(*, text: str) -> bool:
    """Whether `text` is one brace group from its first character to its last."""
    if not (text.startswith("{") and text.endswith("}")):
        return False
    depth = 0
    for index, char in enumerate(text):
        depth += {"{": 1, "}": -1}.get(char, 0)
        if depth == 0:
            return index == len(text) - 1
    return False


def bibtex_authors(*, text: str) -> tuple[str, ...]:
    """Author names of a BibTeX author field, "Last, First" turned into "First Last"."""
    names: list[str] = []
    for part in _split_and(text=text):
        # "and others" is BibTeX for et al.
        if part.strip().lower() in {"others", "et al", "et al."}:
            continue
        cleaned = clean_text(text=part)
        # A name wholly in braces is BibTeX's literal name ("{Barnes and Noble}"), not turned.
        name = cleaned.strip() if _braced(text=part.strip()) else flip_name(name=cleaned)
        if name:
            names.append(name)
    return tuple(names)


def _fields(*, entry: model.Entry) -> dict[str, str]:
    """An entry's fields with lower-case keys and text values."""
    return {str(f.key).lower(): str(f.value) for f in entry.fields}


def _arxiv_id(*, fields: dict[str, str]) -> str:
    """The arXiv id an entry names in eprint, its arXiv DOI, or a "journal = arXiv:..." field."""
    prefix = (fields.get("archiveprefix") or fields.get("eprinttype") or "arxiv").lower()
    eprint = fields.get("eprint", "")
    if eprint and "arxiv" in prefix:
        found = canonical_arxiv_id(text=clean_text(text=eprint))
        if found:
            return found
    for name in ("journal", "note", "howpublished", "booktitle"):
        found = find_arxiv_id(text=clean_text(text=fields.get(name, "")))
        if found:
            return found
    return ""


def _draft(*, entry: model.Entry, origin: str) -> PaperDraft | Rejection:
    """A draft from one parsed entry."""
    fields = _fields(entry=entry)
    url = clean_text(text=fields.get("url", ""))
    draft = build_draft(
        origin=origin,
        title=fields.get("title", ""),
        abstract=fields.get("abstract", ""),
        authors=bibtex_authors(text=fields.get("author", "")),
        url=url,
        arxiv_id=_arxiv_id(fields=fields),
        doi=clean_text(text=fields.get("doi", "")),
    )
    if isinstance(draft, Rejection):
        return draft
    return with_exported(
        draft=draft,
        status=fields.get(BIB_STATUS, ""),
        list_name=bib_list_name(value=fields.get(BIB_LIST, "")),
        title_derived=is_true(text=fields.get(BIB_TITLE_DERIVED, "")),
    )


def _failure(*, block: model.ParsingFailedBlock, origin: str) -> PaperDraft | Rejection:
    """A rejection for a block bibtexparser could not read; a duplicate key is still a paper."""
    salvaged = getattr(block, "ignore_error_block", None)
    if isinstance(block, model.DuplicateBlockKeyBlock) and isinstance(salvaged, model.Entry):
        # Two entries may share a key and still be two papers; dedupe keys decide later.
        return _draft(entry=salvaged, origin=origin)
    error: Any = block.error
    detail = str(getattr(error, "abort_reason", "") or error or "").strip().splitlines()
    reason = "broken BibTeX entry" + (f": {detail[0]}" if detail else "")
    return Rejection(origin=origin, reason=reason)


def parse_bibtex(*, path: str, text: str) -> Parsed:
    """Drafts and rejections for a BibTeX file."""
    problem = file_problem(path=path, text=text)
    if problem is not None:
        return [], [problem]
    try:
        library = parse_string(text)
    except Exception as error:
        # The parser is third-party; whatever it raises, the user gets a reason.
        reason = f"could not read BibTeX: {error}"
        return [], [Rejection(origin=origin_at(path=path, line=1), reason=reason)]
    drafts: list[PaperDraft] = []
    rejections: list[Rejection] = []
    for block in library.blocks:
        origin = origin_at(path=path, line=(block.start_line or 0) + 1)
        if isinstance(block, model.Entry):
            result = _draft(entry=block, origin=origin)
        elif isinstance(block, model.ParsingFailedBlock):
            result = _failure(block=block, origin=origin)
        else:
            continue
        if isinstance(result, PaperDraft):
            drafts.append(result)
        else:
            rejections.append(result)
    if not drafts and not rejections:
        reason = "no BibTeX entries (such as @article{...}) found"
        rejections.append(Rejection(origin=origin_at(path=path, line=1), reason=reason))
    return drafts, rejections
