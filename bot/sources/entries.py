"""One feedparser entry read as a candidate: ids, version, DOI, authors, announce type, day."""

from __future__ import annotations

import calendar
import re
from datetime import UTC, date, datetime
from email.utils import parsedate_to_datetime
from typing import Any

from bot.ingest.arxiv import canonical_arxiv_id
from bot.ingest.atom import ANNOUNCE_RE, entry_arxiv_id, entry_authors, feed_text
from bot.ingest.doi import find_doi, normalise_doi
from bot.sources.candidates import Candidate, make_candidate

# Only so much of a field is read: a hostile feed's 10 MB title is not parsed whole.
_READ = 40_000
_VERSION_RE = re.compile(
    r"(?:\d{4}\.\d{4,5}|[a-z]+(?:-[a-z]+)?(?:\.[A-Za-z-]+)?/\d{7})v(\d{1,3})\b", re.I
)
_KIND_RE = re.compile(r"Announce Type:\s*([a-z-]+)", re.I)
# bioRxiv and medRxiv write "Kukla, D., Crampton, A." : family name, then initials.
_INITIALS_RE = re.compile(r"^(?:[A-Z]\.?(?:-?[A-Z]\.?)*\s*)+$")


def _text(*, value: Any) -> str:
    """A field as plain text, read up to a bound."""
    return feed_text(value=value[:_READ] if isinstance(value, str) else value)


def _arxiv_id(*, entry: Any, arxiv_feed: bool) -> str:
    """The arXiv id an entry names. Other feeds' abstracts may cite arXiv papers, so only an
    arXiv feed's preamble is searched; elsewhere only the entry's own id and links count."""
    if arxiv_feed:
        return entry_arxiv_id(entry=entry)
    for field in (entry.get("id"), entry.get("link")):
        found = canonical_arxiv_id(text=str(field or "")[:300])
        if found:
            return found
    return ""


def _version(*, entry: Any) -> int | None:
    """The arXiv version an entry announces, from its id, link or description preamble."""
    for text in (entry.get("id"), entry.get("link"), str(entry.get("summary") or "")[:200]):
        match = _VERSION_RE.search(str(text or ""))
        if match:
            return int(match.group(1))
    return None


def _doi(*, entry: Any) -> str:
    """The DOI an entry states: arxiv:DOI, prism:doi, dc:identifier, or a doi.org id or link."""
    for name in ("arxiv_doi", "prism_doi", "dc_identifier"):
        value = str(entry.get(name) or "")[:500]
        found = normalise_doi(text=value) or find_doi(text=value)
        if found:
            return found
    for name in ("id", "link"):
        value = str(entry.get(name) or "")[:500]
        if "doi" in value.lower():
            found = normalise_doi(text=value.removeprefix("info:doi/")) or find_doi(text=value)
            if found:
                return found
    return ""


def _authors(*, entry: Any) -> tuple[str, ...]:
    """Author names; bioRxiv's "Family, I., Family, I." paired back into names."""
    single = entry.get("authors") or []
    raw = (
        str(single[0].get("name") or "") if len(single) == 1 and isinstance(single[0], dict) else ""
    )
    pieces = [p.strip() for p in raw[:_READ].split(",")]
    pairs = len(pieces) >= 2 and len(pieces) % 2 == 0
    if pairs and all(_INITIALS_RE.match(p) for p in pieces[1::2]):
        pairs_of = zip(pieces[::2], pieces[1::2], strict=True)
        return tuple(f"{given} {family}" for family, given in pairs_of)
    return entry_authors(entry=entry)


def _day(*, entry: Any) -> date | None:
    """The day an entry was announced or published, in the feed's own time zone (arXiv
    announces at midnight US Eastern: the UTC date could be a day off)."""
    for name in ("published", "prism_publicationdate", "dc_date", "updated"):
        raw = str(entry.get(name) or "").strip()[:100]
        if not raw:
            continue
        try:
            return datetime.fromisoformat(raw).date()
        except ValueError:
            pass
        try:
            return parsedate_to_datetime(raw).date()
        except (TypeError, ValueError, IndexError):
            pass
    for name in ("published_parsed", "updated_parsed"):
        parsed = entry.get(name)
        if parsed:
            return datetime.fromtimestamp(calendar.timegm(parsed), tz=UTC).date()
    return None


def _kind(*, entry: Any) -> str | None:
    """arXiv's announce type: its own element, else the description's "Announce Type:"."""
    stated = str(entry.get("arxiv_announce_type") or "").strip()
    if stated:
        return stated
    match = _KIND_RE.search(str(entry.get("summary") or "")[:300])
    return match.group(1) if match else None


def entry_candidate(*, entry: Any, source: str, arxiv_feed: bool) -> Candidate | None:
    """The candidate one feed entry announces, or None when it names no paper."""
    # Read as a plain dict: FeedParserDict.get maps aliases on every one of the ~25 reads,
    # a tenth of this function's time. No key read here is an alias; the one fallback lost
    # (updated to published) would hand _day the value it already tried.
    entry = dict(entry)
    summary = _text(value=entry.get("summary"))
    if arxiv_feed:
        summary = ANNOUNCE_RE.sub("", summary, count=1)
    return make_candidate(
        source=source,
        title=_text(value=entry.get("title")),
        abstract=summary,
        authors=_authors(entry=entry),
        arxiv_id=_arxiv_id(entry=entry, arxiv_feed=arxiv_feed),
        version=_version(entry=entry),
        doi=_doi(entry=entry),
        url=str(entry.get("link") or "")[:2_000],
        announced=_day(entry=entry),
        categories=[
            str(t.get("term") or "") for t in entry.get("tags") or [] if isinstance(t, dict)
        ],
        announce=_kind(entry=entry) if arxiv_feed else None,
    )
