"""RSS and Atom feeds read into candidates: arXiv's announcement feeds (RSS and Atom, with
`arxiv:announce_type`), the arXiv API's Atom, and any other RSS 1.0/2.0 or Atom feed.

The caller caps the bytes it fetched; each field is capped here (candidates.py). feedparser
resolves no external entities; a document type declaration is removed before parsing, so an
internal entity cannot expand either ("billion laughs"), and its entities read as broken XML.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from typing import Any

import feedparser

from bot.sources.candidates import Candidate
from bot.sources.entries import entry_candidate

# A feed needs no DTD; a declaration with an internal subset is how entity bombs arrive.
_DOCTYPE_RE = re.compile(rb"<!DOCTYPE(?:[^\[>]*\[.*?\]\s*>|[^>]*>)", re.I | re.S)
_ARXIV_FEED_RE = re.compile(r"(?:rss|export)\.arxiv\.org|arxiv\.org/api/|updates on arXiv\.org")
# At most this many entries are read from one feed (arXiv's busiest day lists about 2,000).
MAX_ENTRIES = 5_000


@dataclass(frozen=True, slots=True)
class FeedRead:
    """What one feed gave: its candidates in feed order, and problems worth reporting (a
    malformed or cut-off feed still gives the entries read before the break)."""

    candidates: tuple[Candidate, ...] = ()
    problems: tuple[str, ...] = ()
    # The feed's own title, for the failure report ("math.OC updates on arXiv.org").
    title: str = ""
    entries: int = 0
    # The feed broke off, or the arXiv API answered with an error entry: what was read is
    # kept, and the rest is worth asking again (a skipped entry or the entry cap is not).
    cut_short: bool = False


def _parse(*, data: bytes) -> Any:
    """feedparser's result for the bytes, from a stream: given a string that looks like a
    URL or a path, feedparser would fetch or open it."""
    head, rest = data[:4096], data[4096:]
    return feedparser.parse(io.BytesIO(_DOCTYPE_RE.sub(b"", head, count=1) + rest))


def _is_arxiv(*, feed: Any) -> bool:
    """Whether the feed is one of arXiv's, whose descriptions open with a listing preamble."""
    meta = feed.get("feed") or {}
    text = " ".join(str(meta.get(name) or "") for name in ("id", "link", "title"))
    return bool(_ARXIV_FEED_RE.search(text))


def _break(*, feed: Any) -> str | None:
    """Why the XML broke off, with its line, or None for a well-formed feed."""
    if not feed.get("bozo"):
        return None
    broken: Any = feed.get("bozo_exception")
    if not hasattr(broken, "getLineNumber"):
        return None  # an encoding override or a declared content type: harmless
    return f"line {broken.getLineNumber()}: {broken.getMessage()}"


def read_feed(*, data: bytes, source: str) -> FeedRead:
    """Candidates for an RSS or Atom feed's bytes, and what went wrong reading it; never raises.

    `source` names the watch's source on every candidate. An arXiv API error entry becomes a
    problem, not a candidate; an empty feed (arXiv's weekends and holidays) gives nothing and
    no problem."""
    if not data.strip():
        return FeedRead(problems=("the feed is empty",))
    try:
        feed = _parse(data=data)
    except Exception as error:  # the parser is third-party: whatever it raises is a reason
        return FeedRead(problems=(f"could not read the feed: {error}",))
    entries = list(feed.get("entries") or [])
    broken = _break(feed=feed)
    title = str((feed.get("feed") or {}).get("title") or "")[:200]
    if not entries and (broken is not None or not feed.get("version")):
        detail = f" ({broken})" if broken else ""
        return FeedRead(problems=(f"not an RSS or Atom feed{detail}",), title=title)
    arxiv = _is_arxiv(feed=feed)
    problems: list[str] = []
    candidates: list[Candidate] = []
    for entry in entries[:MAX_ENTRIES]:
        if "/api/errors" in str(entry.get("id") or ""):
            problems.append(f"arXiv API error: {str(entry.get('summary') or '')[:300]}")
            continue
        candidate = entry_candidate(entry=entry, source=source, arxiv_feed=arxiv)
        if candidate is not None:
            candidates.append(candidate)
    if len(entries) > MAX_ENTRIES:
        problems.append(f"{len(entries):,} entries: only the first {MAX_ENTRIES:,} were read")
    if broken is not None:
        problems.append(f"the feed breaks off at {broken}; later entries may be missing")
    return FeedRead(
        candidates=tuple(candidates),
        problems=tuple(problems),
        title=title,
        entries=len(entries),
        cut_short=broken is not None or any(p.startswith("arXiv API error") for p in problems),
    )
