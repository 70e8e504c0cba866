"""Crossref's /works answers (a journal's works by ISSN, or one work) read into candidates."""

from __future__ import annotations

import json
import re
from typing import Any

from bot.ingest.atom import feed_text
from bot.ingest.crossref import published_date
from bot.ingest.doi import normalise_doi
from bot.sources.candidates import Candidate, make_candidate
from bot.sources.feeds import MAX_ENTRIES, FeedRead

# JATS abstracts often open with a heading ("<jats:title>Abstract</jats:title>"): a label.
_HEADINGS = ("abstract", "summary", "background")
# JATS block elements separate words, as HTML's do in feed_text.
_JATS_BLOCK_RE = re.compile(r"</?jats:(?:p|title|sec|list|list-item|boxed-text)\b[^>]*>", re.I)


def _text(*, value: Any) -> str:
    """A Crossref string field (JATS or HTML inside) as plain text."""
    if not isinstance(value, str):
        return ""
    return feed_text(value=_JATS_BLOCK_RE.sub(" ", value[:40_000]))


def _abstract(*, value: Any) -> str:
    """A JATS abstract as plain text, without its leading "Abstract" heading."""
    text = _text(value=value).strip()
    first, _, rest = text.partition(" ")
    if first.lower().rstrip(":.") in _HEADINGS and rest:
        return rest
    return text


def _author(*, person: Any) -> str:
    """One contributor's name: given and family, or an organisation's name."""
    if not isinstance(person, dict):
        return ""
    parts = (person.get("given"), person.get("family"))
    named = " ".join(str(p) for p in parts if isinstance(p, str) and p.strip())
    return named or str(person.get("name") or "")


def work_candidate(*, work: Any, source: str) -> Candidate | None:
    """The candidate one Crossref work record names; None without a title or DOI."""
    if not isinstance(work, dict):
        return None
    titles = work.get("title")
    title = _text(value=titles[0]) if isinstance(titles, list) and titles else ""
    doi = normalise_doi(text=str(work.get("DOI") or "")[:500])
    if doi is None:
        return None
    people = work.get("author")
    subjects = work.get("subject")
    try:
        day = published_date(work=work)
    except (AttributeError, TypeError, IndexError):
        day = None  # a date-parts shape Crossref never documented
    return make_candidate(
        source=source,
        title=title,
        abstract=_abstract(value=work.get("abstract")),
        authors=[_author(person=p) for p in people[:500]] if isinstance(people, list) else [],
        doi=doi,
        url=str(work.get("URL") or "")[:2_000],
        announced=day,
        categories=[str(s) for s in subjects] if isinstance(subjects, list) else [],
    )


def read_crossref(*, data: bytes, source: str) -> FeedRead:
    """Candidates for a Crossref /works answer (a work-list or a single work); never raises."""
    try:
        answer = json.loads(data)
    except (ValueError, RecursionError) as error:
        return FeedRead(problems=(f"not a Crossref answer: {str(error)[:200]}",))
    message = answer.get("message") if isinstance(answer, dict) else None
    if not isinstance(message, dict):
        return FeedRead(problems=("not a Crossref answer: no message",))
    items = message.get("items") if answer.get("message-type") != "work" else [message]
    if not isinstance(items, list):
        return FeedRead(problems=("not a Crossref answer: no items",))
    found = (work_candidate(work=w, source=source) for w in items[:MAX_ENTRIES])
    candidates = tuple(c for c in found if c is not None)
    skipped = min(len(items), MAX_ENTRIES) - len(candidates)
    problems = (f"{skipped} works without a title or DOI were skipped",) if skipped else ()
    return FeedRead(candidates=candidates, problems=problems, entries=len(items))
