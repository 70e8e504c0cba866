"""Pure renderers of export records: JSON (the fixed shape), CSV and BibTeX; RIS and CSL-JSON
have modules of their own."""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Sequence
from typing import Any

from bot.domain import PaperRecord
from bot.export_csl import to_csl_json
from bot.export_ris import to_ris
from bot.ingest.csvfmt import guard_cell
from bot.ingest.exported import BIB_LIST, BIB_STATUS, BIB_TITLE_DERIVED, bib_list_value

_BIB_AND_RE = re.compile(r"\s+and\s+", re.IGNORECASE)
EXPORT_FORMATS = ("json", "csv", "bibtex", "ris", "csl-json")


def record_dict(*, record: PaperRecord) -> dict[str, Any]:
    """The JSON object of one paper; this shape is a promise to users' scripts."""
    paper = record.paper
    return {
        "id": paper.id,
        "title": paper.title,
        "authors": list(paper.authors),
        "abstract": paper.abstract,
        "url": paper.url,
        "arxiv_id": paper.arxiv_id,
        "doi": paper.doi,
        "status": paper.status.value,
        "list": record.list_name,
        "title_derived": paper.title_derived,
        "added_at": paper.added_at.isoformat(),
        "posts": [
            {
                "channel": str(post.channel),
                "private": post.private,
                "date": post.date.isoformat(),
                "message_id": post.message_id,
                "permalink": post.permalink,
                "votes": {"up": post.votes.up, "down": post.votes.down},
                "comments": [
                    {
                        "user": c.user,
                        "message_id": c.message_id,
                        "text": c.text,
                        "edited": c.edited,
                    }
                    for c in post.comments
                ],
            }
            for post in record.posts
        ],
    }


def to_json(*, records: Sequence[PaperRecord]) -> str:
    """A JSON list, one object per paper."""
    return json.dumps([record_dict(record=r) for r in records], ensure_ascii=False, indent=2) + "\n"


CSV_COLUMNS = (
    "id",
    "title",
    "authors",
    "abstract",
    "url",
    "arxiv_id",
    "doi",
    "status",
    "added_at",
    "posted_on",
    "channels",
    "up",
    "down",
    "comments",
    # Added last, so that scripts reading columns by position keep working.
    "list",
    "title_derived",
)


def to_csv(*, records: Sequence[PaperRecord]) -> str:
    """One row per paper; authors joined with '; ' (the importer splits them back). A text cell
    a spreadsheet would run as a formula ("=...", "-...", "@...") gets a leading apostrophe,
    as titles come from anyone's reading list; the CSV importer takes it off again."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for record in records:
        paper, posts = record.paper, record.posts
        cells: list[str | int] = [
            paper.id,
            paper.title,
            "; ".join(paper.authors),
            paper.abstract,
            paper.url or "",
            paper.arxiv_id or "",
            paper.doi or "",
            paper.status.value,
            paper.added_at.isoformat(),
            " ".join(p.date.isoformat() for p in posts),
            " ".join(str(p.channel) for p in posts),
            sum(p.votes.up for p in posts),
            sum(p.votes.down for p in posts),
            sum(len(p.comments) for p in posts),
            record.list_name or "",
            "true" if paper.title_derived else "false",
        ]
        writer.writerow([guard_cell(text=c) if isinstance(c, str) else c for c in cells])
    return out.getvalue()


def _bib_value(*, text: str) -> str:
    """Brace-balanced BibTeX field text: unbalanced braces would break every later entry."""
    cleaned = text.replace("\\", "\\textbackslash{}")
    if "{" not in text and "}" not in text:
        return cleaned  # most text: no walk (an archive's file holds megabytes of abstracts)
    depth = 0
    for char in cleaned:
        depth += {"{": 1, "}": -1}.get(char, 0)
        if depth < 0:
            break
    if depth != 0:
        cleaned = cleaned.replace("{", "(").replace("}", ")")
    return cleaned


def _bib_name(*, name: str) -> str:
    """An author as BibTeX reads it back whole: a name with a comma ("John Smith, Jr."), an
    "and" ("Barnes and Noble") or that is "others" goes in braces, BibTeX's literal name."""
    if "," in name or _BIB_AND_RE.search(name) or name.strip().lower() == "others":
        return "{" + name + "}"
    return name


def _bib_key(*, record: PaperRecord) -> str:
    """A stable citation key: first author's surname + id, ASCII only."""
    first = record.paper.authors[0].split()[-1] if record.paper.authors else "paper"
    return (re.sub(r"[^A-Za-z0-9]", "", first) or "paper").lower() + str(record.paper.id)


def to_bibtex(*, records: Sequence[PaperRecord]) -> str:
    """One @misc entry per paper, with arXiv eprint fields when known."""
    entries = []
    for record in records:
        paper = record.paper
        fields = [("title", "{" + _bib_value(text=paper.title) + "}")]
        if paper.authors:
            names = " and ".join(_bib_name(name=name) for name in paper.authors)
            fields.append(("author", _bib_value(text=names)))
        if paper.abstract:
            fields.append(("abstract", _bib_value(text=paper.abstract)))
        if paper.arxiv_id:
            fields += [("eprint", paper.arxiv_id), ("archiveprefix", "arXiv")]
        if paper.doi:
            fields.append(("doi", _bib_value(text=paper.doi)))
        if paper.url:
            fields.append(("url", _bib_value(text=paper.url)))
        # Our own fields, which BibTeX tools skip; the importer reads them back.
        fields.append((BIB_STATUS, paper.status.value))
        if record.list_name:
            fields.append((BIB_LIST, bib_list_value(name=record.list_name)))
        if paper.title_derived:
            fields.append((BIB_TITLE_DERIVED, "true"))
        body = ",\n".join(f"  {name} = {{{value}}}" for name, value in fields)
        entries.append(f"@misc{{{_bib_key(record=record)},\n{body}\n}}\n")
    return "\n".join(entries)


def render(*, records: Sequence[PaperRecord], fmt: str) -> str:
    """Render records in one of EXPORT_FORMATS."""
    renderers = {
        "json": to_json,
        "csv": to_csv,
        "bibtex": to_bibtex,
        "ris": to_ris,
        "csl-json": to_csl_json,
    }
    return renderers[fmt](records=records)
