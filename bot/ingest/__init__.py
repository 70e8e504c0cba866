"""Pure parsers that turn reading-list files into paper drafts plus rejections.

Nothing here reads files or talks to the network: callers pass the path (only used
to name origins) and the decoded text (`decode` turns a file's bytes into it).
"""

from __future__ import annotations

import re
from typing import Protocol

from bot.ingest.csljson import looks_like_csl, parse_csl_json
from bot.ingest.csvfmt import parse_csv
from bot.ingest.drafts import Parsed
from bot.ingest.encoding import decode
from bot.ingest.jsonfmt import parse_json
from bot.ingest.limits import within_limits
from bot.ingest.reference import draft_from_reference
from bot.ingest.ris import parse_ris
from bot.ingest.text import parse_text

__all__ = ["FORMATS", "Parsed", "decode", "detect_format", "draft_from_reference", "parse"]

FORMATS = ("text", "json", "csv", "bibtex", "atom", "ris", "csl-json")


class _Parser(Protocol):
    """What every format's parser is: keyword path and text in, drafts and rejections out."""

    def __call__(self, *, path: str, text: str) -> Parsed:
        """Parse one file's text."""
        ...


def _parse_bibtex(*, path: str, text: str) -> Parsed:
    """BibTeX, with bibtexparser imported on first use (`paperclub run` never loads it)."""
    from bot.ingest.bibtex import parse_bibtex as parse_with_bibtexparser

    return parse_with_bibtexparser(path=path, text=text)


def _parse_atom(*, path: str, text: str) -> Parsed:
    """Atom and RSS, with feedparser imported on first use (`paperclub run` never loads it)."""
    from bot.ingest.atom import parse_atom as parse_with_feedparser

    return parse_with_feedparser(path=path, text=text)


_PARSERS: dict[str, _Parser] = {
    "text": parse_text,
    "json": parse_json,
    "csv": parse_csv,
    "bibtex": _parse_bibtex,
    "atom": _parse_atom,
    "ris": parse_ris,
    "csl-json": parse_csl_json,
}
_EXTENSIONS = {
    ".txt": "text",
    ".text": "text",
    ".md": "text",
    ".markdown": "text",
    ".json": "json",
    ".csv": "csv",
    ".tsv": "csv",
    ".bib": "bibtex",
    ".bibtex": "bibtex",
    ".atom": "atom",
    ".xml": "atom",
    ".rss": "atom",
    ".ris": "ris",
}
# RIS opens with its type tag: "TY  - JOUR".
_RIS_RE = re.compile(r"\ATY {1,2}- ")
_FEED_RE = re.compile(r"<(?:[\w.-]+:)?(?:feed|rss|RDF)[\s>]")
_BIBTEX_RE = re.compile(r"^\s*@[A-Za-z]+\s*[{(]", re.MULTILINE)
_JSON_START_RE = re.compile(r'\s*(?:\[\s*[\[{"\]\d-]|\[\s*$|\{\s*["}]|\{\s*$)')
_CSV_HEADER_RE = re.compile(
    r"^\W*(?:title|abstract|authors?|url|link|arxiv(?:_?id)?|doi|name|summary)\W*$", re.I
)


def _looks_like_csv(*, text: str) -> bool:
    """Whether the first line is a delimited header naming at least one known column."""
    header = next((line for line in text.splitlines() if line.strip()), "")
    cells = re.split(r"[,;\t]", header)
    return len(cells) > 1 and any(_CSV_HEADER_RE.match(cell) for cell in cells)


def detect_format(*, path: str, text: str) -> str:
    """The format of a file: by its extension, else by sniffing its content."""
    name = path.lower()
    head = text.lstrip("\ufeff \t\r\n")[:4096]
    for extension, fmt in _EXTENSIONS.items():
        if name.endswith(extension):
            # CSL-JSON is JSON too: its items' "type" and "id" tell it from other JSON.
            return "csl-json" if fmt == "json" and looks_like_csl(head=head) else fmt
    if _RIS_RE.match(head):
        return "ris"
    if head.startswith("<") and (_FEED_RE.search(head) or head.startswith("<?xml")):
        return "atom"
    if _JSON_START_RE.match(head):
        return "csl-json" if looks_like_csl(head=head) else "json"
    if _BIBTEX_RE.search(head):
        return "bibtex"
    if _looks_like_csv(text=head):
        return "csv"
    return "text"


def parse(*, path: str, text: str, fmt: str = "auto", capped: bool = True) -> Parsed:
    """Drafts and rejections for one file's text in `fmt` (one of FORMATS, or "auto"); an entry
    past the size caps (limits.py) is rejected unless `capped` is off (a service's answer)."""
    if fmt == "auto":
        fmt = detect_format(path=path, text=text)
    if fmt not in _PARSERS:
        raise ValueError(f"unknown format {fmt!r}; expected one of {', '.join(FORMATS)}")
    parsed = _PARSERS[fmt](path=path, text=text)
    return within_limits(parsed=parsed) if capped else parsed
