"""arXiv feeds: API results (Atom) and daily listings (RSS), read with feedparser."""

from __future__ import annotations

import html
import io
import re
from typing import Any

import feedparser

from bot.domain import PaperDraft, Rejection
from bot.ingest.arxiv import canonical_arxiv_id, find_arxiv_id
from bot.ingest.drafts import Parsed, build_draft, collect, file_problem, origin_at, split_authors

# Block-level tags separate words; inline ones (<b>, <i>, <sub>) sit inside them.
_BLOCK_TAG_RE = re.compile(r"</?(?:p|br|div|li|ul|ol|h\d|tr|td|th|blockquote|hr)\b[^>]*>", re.I)
_TAG_RE = re.compile(r"<[^>]+>")
_ENTRY_TAG_RE = re.compile(r"<(?:[A-Za-z][\w.-]*:)?(?:entry|item)[\s>/]")
# Listing feeds open each description with "arXiv:2401.01234v1 Announce Type: new Abstract:".
ANNOUNCE_RE = re.compile(r"^\s*arXiv:\S+\s+Announce Type:.*?Abstract:\s*", re.DOTALL)


def feed_text(*, value: Any) -> str:
    """Feed text without HTML tags or entities (bot/sources reads feeds with it too)."""
    if not isinstance(value, str):
        return ""
    return html.unescape(_TAG_RE.sub("", _BLOCK_TAG_RE.sub(" ", value)))


def entry_arxiv_id(*, entry: Any) -> str:
    """The arXiv id an entry names in its id, links or listing preamble."""
    raw_id = str(entry.get("id") or "")
    candidates = [raw_id.removeprefix("oai:arXiv.org:"), str(entry.get("link") or "")]
    candidates += [str(link.get("href") or "") for link in entry.get("links") or []]
    for candidate in candidates:
        found = canonical_arxiv_id(text=candidate)
        if found:
            return found
    return find_arxiv_id(text=str(entry.get("summary") or "")[:200]) or ""


def entry_authors(*, entry: Any) -> tuple[str, ...]:
    """Author names; a listing's single "A, B, C" creator string split into names."""
    names: list[str] = []
    for author in entry.get("authors") or []:
        name = str(author.get("name") or "") if isinstance(author, dict) else ""
        names.extend(split_authors(text=name) if ("," in name or " and " in name) else [name])
    return tuple(names)


def _entry_result(*, entry: Any, origin: str) -> PaperDraft | Rejection:
    """A draft for one feed entry, or a rejection for an arXiv API error entry."""
    summary = ANNOUNCE_RE.sub("", feed_text(value=entry.get("summary")), count=1)
    if "/api/errors" in str(entry.get("id") or ""):
        return Rejection(origin=origin, reason=f"arXiv API error: {summary.strip()}")
    arxiv_id = entry_arxiv_id(entry=entry)
    return build_draft(
        origin=origin,
        title=feed_text(value=entry.get("title")),
        abstract=summary,
        authors=entry_authors(entry=entry),
        # An arXiv entry's link names one version; the draft gets the versionless page.
        url="" if arxiv_id else str(entry.get("link") or ""),
        arxiv_id=arxiv_id,
        doi=str(entry.get("arxiv_doi") or ""),
    )


def _entry_lines(*, text: str, count: int) -> list[int] | None:
    """The line each <entry>/<item> opens on, when there is one tag per parsed entry."""
    starts = [text.count("\n", 0, m.start()) + 1 for m in _ENTRY_TAG_RE.finditer(text)]
    return starts if len(starts) == count else None


def parse_atom(*, path: str, text: str) -> Parsed:
    """Drafts and rejections for an Atom or RSS feed of papers."""
    problem = file_problem(path=path, text=text)
    if problem is not None:
        return [], [problem]
    try:
        # A stream, never the string: feedparser would fetch a string that looks like a URL
        # and open one that names a file.
        feed = feedparser.parse(io.BytesIO(text.encode("utf-8", errors="replace")))
    except Exception as error:
        # The parser is third-party; whatever it raises, the user gets a reason.
        reason = f"could not read the feed: {error}"
        return [], [Rejection(origin=origin_at(path=path, line=1), reason=reason)]
    entries = list(feed.get("entries") or [])
    broken: Any = feed.get("bozo_exception") if feed.get("bozo") else None
    # Only XML syntax errors carry a line; an encoding override is harmless.
    broken_line = broken.getLineNumber() if hasattr(broken, "getLineNumber") else None
    if not entries and (broken_line is not None or not feed.get("version")):
        detail = f" ({broken.getMessage()})" if broken_line is not None else ""
        reason = f"not an Atom or RSS feed{detail}"
        return [], [Rejection(origin=origin_at(path=path, line=broken_line or 1), reason=reason)]
    lines = _entry_lines(text=text, count=len(entries))
    origins = [
        origin_at(path=path, line=lines[i]) if lines else f"{path}#{i}" for i in range(len(entries))
    ]
    drafts, rejections = collect(
        results=(_entry_result(entry=e, origin=o) for e, o in zip(entries, origins, strict=True))
    )
    if broken_line is not None:
        reason = f"feed breaks off here ({broken.getMessage()}); later entries may be missing"
        rejections.append(Rejection(origin=origin_at(path=path, line=broken_line), reason=reason))
    return drafts, rejections
