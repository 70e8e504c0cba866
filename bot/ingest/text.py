"""The plain reading-list format: entries separated by blank lines, mostly bare abstracts.

An entry may open with a labelled header ("Related papers: <title>", "Title: <title>"),
a Markdown heading, or a short title line; it may carry "Authors:", "Abstract:" and
reference lines (arXiv ids or URLs, DOIs, links). Everything else is abstract text.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace

from bot.domain import PaperDraft, Rejection
from bot.ingest.arxiv import canonical_arxiv_id, find_arxiv_id
from bot.ingest.doi import find_doi, normalise_doi
from bot.ingest.drafts import Parsed, build_draft, collect, file_problem, origin_at, split_authors
from bot.ingest.exported import clean_list_name

TITLE_LABELS = frozenset(
    {"title", "paper", "papers", "related", "related paper", "related papers", "see also"}
    | {"read", "reading", "to read", "suggested", "suggestion", "recommended", "next"}
)
# Labels of a file's first line that name the whole list rather than one paper.
LIST_LABELS = frozenset({"related papers", "related", "related work", "see also", "reading list"})
ABSTRACT_LABELS = frozenset({"abstract", "summary", "tl;dr", "tldr"})
AUTHOR_LABELS = frozenset({"author", "authors", "by"})
LINK_LABELS = frozenset({"url", "link", "pdf", "arxiv", "doi", "source", "paper url"})

_LABEL_RE = re.compile(r"(?P<label>[A-Za-z][A-Za-z ;./-]{0,24}?)\s*:\s*(?P<value>.*)")
_BULLET_RE = re.compile(r"^(?:[-*+•]|\d{1,3}[.)])\s+")
_HEADING_RE = re.compile(r"^#{1,6}\s+(.*?)\s*#*$")
_BOLD_RE = re.compile(r"^(?:\*\*|__)(.+?)(?:\*\*|__)$")
_MD_LINK_RE = re.compile(r"^\[(?P<text>[^\]]+)\]\((?P<url>\S+?)\)$")
_URL_RE = re.compile(r"^<?(?P<url>(?:https?://|www\.)\S+?)>?$", re.IGNORECASE)
_SENTENCE_RE = re.compile(r"[.!?]\s+[A-Z]")
_LINE_BREAK_RE = re.compile(r"\r\n|\r|\n")


@dataclass
class _Entry:
    """The fields of one entry as they are read, before cleaning."""

    title: str = ""
    abstract_lines: list[str] = field(default_factory=list)
    authors: tuple[str, ...] = ()
    url: str = ""
    arxiv_id: str = ""
    doi: str = ""
    headings: int = 0


def _blocks(*, text: str) -> Iterator[tuple[int, list[str]]]:
    """(first line number, stripped lines) of each blank-line-separated block."""
    start, lines = 0, []
    for number, raw in enumerate(_LINE_BREAK_RE.split(text), start=1):
        line = raw.strip()
        if line:
            start = start or number
            lines.append(line)
        elif lines:
            yield start, lines
            start, lines = 0, []
    if lines:
        yield start, lines


def _entries(*, text: str) -> Iterator[tuple[int, list[str]]]:
    """Each entry: a block, or one item of a block that is a bulleted list of papers."""
    for start, lines in _blocks(text=text):
        if len(lines) > 1 and all(_BULLET_RE.match(line) for line in lines):
            for offset, line in enumerate(lines):
                yield start + offset, [_BULLET_RE.sub("", line)]
        else:
            yield start, [_BULLET_RE.sub("", lines[0]), *lines[1:]]


def _take_reference(*, entry: _Entry, text: str) -> bool:
    """Record `text` as the entry's arXiv id, DOI or link if that is all it is."""
    arxiv = canonical_arxiv_id(text=text)
    if arxiv is not None:
        entry.arxiv_id = entry.arxiv_id or arxiv
        return True
    doi = normalise_doi(text=text)
    if doi is not None:
        entry.doi = entry.doi or doi
        return True
    url = _URL_RE.fullmatch(text)
    if url is not None:
        entry.url = entry.url or url.group("url")
        return True
    return False


def _take_labelled(*, entry: _Entry, line: str) -> bool:
    """Record a "Label: value" line the entry understands; False for anything else."""
    match = _LABEL_RE.fullmatch(line)
    if match is None:
        return False
    label, value = match.group("label").strip().lower(), match.group("value").strip()
    if label in TITLE_LABELS and not entry.title:
        # A title cut off mid-word ("Mitigating GPU fail…") is kept as written: a cut
        # right after a whole word looks the same ("…is still a challenging…"), so
        # dropping the last word would lose a real word as often as a fragment, and
        # the ellipsis already tells the reader that the title goes on.
        entry.title = value
    elif label in ABSTRACT_LABELS:
        entry.abstract_lines.append(value)
    elif label in AUTHOR_LABELS:
        entry.authors = split_authors(text=value)
    elif label in LINK_LABELS:
        # "arXiv: 2401.01234" and "DOI: 10.1/x" name the id without its usual prefix.
        return _take_reference(entry=entry, text=value) or _take_reference(
            entry=entry, text=f"{label}:{value}"
        )
    else:
        return False
    return True


def _looks_like_title(*, first: str, rest: list[str]) -> bool:
    """Whether an unlabelled first line is a title rather than the start of an abstract."""
    if len(first) > 200 or first.endswith((".", ",", ";", ":")) or _SENTENCE_RE.search(first):
        return False
    if not rest:
        # A lone line: a title when short, an abstract fragment when long.
        return len(first) <= 150
    if not (rest[0][:1].isupper() or rest[0][:1].isdigit()):
        return False
    words = [w for w in first.split() if w[:1].isalpha()]
    title_case = bool(words) and sum(w[0].isupper() for w in words) >= 0.6 * len(words)
    # A hard-wrapped abstract has lines of about equal width; a title is shorter.
    return title_case or len(first) < 0.8 * max(len(line) for line in rest)


def _looks_like_authors(*, line: str) -> bool:
    """Whether a line under a title is a list of names rather than prose."""
    if len(line) > 300 or _SENTENCE_RE.search(line) or line.endswith("."):
        return False
    names = split_authors(text=line)
    return bool(names) and all(
        1 <= len(name.split()) <= 5 and all(w[:1].isupper() for w in name.split()) for name in names
    )


def _markdown_title(*, entry: _Entry, line: str) -> bool:
    """Record a Markdown heading, bold line or link line as the entry's title."""
    for pattern in (_HEADING_RE, _BOLD_RE):
        match = pattern.fullmatch(line)
        if match is not None:
            entry.headings += pattern is _HEADING_RE
            entry.title = entry.title or match.group(1)
            return True
    link = _MD_LINK_RE.fullmatch(line)
    if link is not None:
        entry.title = entry.title or link.group("text")
        _take_reference(entry=entry, text=link.group("url"))
        return True
    return False


def _join(*, lines: list[str]) -> str:
    """Lines of one paragraph joined, without a space after a hyphen that broke a word."""
    joined = ""
    for line in lines:
        # "multi-" + "core" is one word, and TeX's discretionary "constrai\\-" + "ned" too.
        soft = joined.endswith("\\-")
        if soft or (joined.endswith("-") and line[:1].islower() and joined[-2:-1].isalpha()):
            joined += line
        else:
            joined = f"{joined} {line}" if joined else line
    return joined


def _read_entry(*, lines: list[str]) -> _Entry:
    """The fields of one entry's lines."""
    entry = _Entry()
    body: list[str] = []
    for index, line in enumerate(lines):
        if index == 0 and _markdown_title(entry=entry, line=line):
            continue
        if not _take_labelled(entry=entry, line=line) and not _take_reference(
            entry=entry, text=line
        ):
            body.append(line)
    if not entry.title and body and _looks_like_title(first=body[0], rest=body[1:]):
        entry.title = body.pop(0)
        if len(body) > 1 and not entry.authors and _looks_like_authors(line=body[0]):
            entry.authors = split_authors(text=body.pop(0))
    entry.abstract_lines = [*entry.abstract_lines, *body]
    return entry


def _entry_result(*, path: str, start: int, lines: list[str]) -> PaperDraft | Rejection | None:
    """A draft for one entry, a rejection, or None for a block that is only a heading."""
    entry = _read_entry(lines=lines)
    abstract = _join(lines=entry.abstract_lines)
    if entry.headings and len(lines) == entry.headings and not entry.arxiv_id and not entry.doi:
        # "## Week 3" alone is a section heading of the list, not a paper.
        return None
    inline = f"{entry.title} {abstract}"
    return build_draft(
        origin=origin_at(path=path, line=start),
        title=entry.title,
        abstract=abstract,
        authors=entry.authors,
        url=entry.url,
        arxiv_id=entry.arxiv_id or find_arxiv_id(text=inline) or "",
        doi=entry.doi or find_doi(text=inline) or "",
    )


def _list_header(*, lines: list[str]) -> tuple[str, str] | None:
    """(the list's name, the title it names) when a file's first entry is one labelled line
    like "Related papers: <title>": the list's subject, not a paper to post."""
    match = _LABEL_RE.fullmatch(lines[0]) if len(lines) == 1 else None
    if match is None or match.group("label").strip().lower() not in LIST_LABELS:
        return None
    value = match.group("value").strip()
    # Stored as every export carries it back: one spaced line of at most 300 characters.
    return (clean_list_name(text=lines[0]), value) if value else None


def parse_text(*, path: str, text: str) -> Parsed:
    """Drafts and rejections for a plain-text (or Markdown) reading list. A header line names
    the list: its drafts carry that name, and the paper it names is a reference."""
    problem = file_problem(path=path, text=text)
    if problem is not None:
        return [], [problem]
    entries = list(_entries(text=text))
    header = _list_header(lines=entries[0][1]) if len(entries) > 1 else None
    results = [
        _entry_result(path=path, start=start, lines=lines)
        for start, lines in (entries[1:] if header else entries)
    ]
    drafts, rejections = collect(results=(r for r in results if r is not None))
    if header is None:
        return drafts, rejections
    name, title = header
    named = build_draft(origin=origin_at(path=path, line=entries[0][0]), title=title)
    reference = [replace(named, reference=True)] if isinstance(named, PaperDraft) else []
    return [replace(d, list_name=name) for d in reference + drafts], rejections
