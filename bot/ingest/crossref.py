"""A Crossref work record (the REST API's JSON) as a draft."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from bot.domain import PaperDraft
from bot.ingest.clean import clean_text
from bot.ingest.doi import normalise_doi

_TAG = re.compile(r"<[^>]+>")


def published_date(*, work: dict[str, Any]) -> date | None:
    """The work's first publication date Crossref knows (day and month default to 1)."""
    for name in ("published", "published-print", "published-online", "issued"):
        parts = ((work.get(name) or {}).get("date-parts") or [[None]])[0]
        if parts and isinstance(parts[0], int):
            year, month, day = [*parts, 1, 1][:3]
            try:
                return date(int(year), int(month or 1), int(day or 1))
            except (TypeError, ValueError):
                return None
    return None


def crossref_work(*, work: Any) -> PaperDraft | None:
    """Title, authors, abstract (JATS tags dropped), DOI, URL and date of one work; None for
    a record without a title or DOI."""
    if not isinstance(work, dict):
        return None
    titles = work.get("title") or []
    title = clean_text(text=str(titles[0])) if isinstance(titles, list) and titles else ""
    doi = normalise_doi(text=str(work.get("DOI") or ""))
    if not title or doi is None:
        return None
    authors = tuple(
        " ".join(filter(None, (a.get("given"), a.get("family")))) or str(a.get("name", ""))
        for a in work.get("author") or []
        if isinstance(a, dict)
    )
    return PaperDraft(
        title=title,
        abstract=clean_text(text=_TAG.sub(" ", str(work.get("abstract") or ""))),
        authors=tuple(a for a in authors if a),
        doi=doi,
        url=str(work.get("URL") or "") or None,
        origin=f"crossref:{doi}",
        published=published_date(work=work),
    )
