"""Crossref works as /journals/{issn}/works lists them, and the filters that select them.

The item shape follows the real page kept in samples/ (rcrossref's recorded answer for PLOS
ONE): dates as {"date-parts": [[y, m, d]]} with date-time and timestamp on indexed, created
and deposited; ISSN and issn-type; container-title a list; score 0.0 without a query.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any
from xml.sax.saxutils import escape

from tests.fakelookup.records import words

# The filters the fake reads; Crossref knows many more, and a name it does not know is a 400.
DATE_FILTERS = (
    "from-index-date",
    "until-index-date",
    "from-pub-date",
    "until-pub-date",
    "from-created-date",
    "until-created-date",
)


@dataclass(frozen=True)
class CrossrefWork:
    """One journal article. `indexed`: when Crossref last indexed it (from-index-date reads
    it); `published`: its publication date (from-pub-date reads it); `created`: when it was
    first deposited (from-created-date reads it; the publication day when None)."""

    doi: str
    title: str
    authors: tuple[str, ...]
    issn: str
    published: date
    indexed: datetime
    container_title: str = "Journal of Invented Systems"
    abstract: str | None = None
    publisher: str = "Fake Scholarly Press"
    extra_issns: tuple[str, ...] = field(default=())
    created: datetime | None = None

    @property
    def created_at(self) -> datetime:
        """When it was first deposited."""
        return self.created or datetime.combine(self.published, datetime.min.time(), tzinfo=UTC)


def _stamp(*, when: datetime) -> dict[str, Any]:
    """A Crossref timestamp object: date-parts, date-time (UTC, Z) and milliseconds."""
    utc = when.astimezone(UTC)
    return {
        "date-parts": [[utc.year, utc.month, utc.day]],
        "date-time": utc.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "timestamp": int(utc.timestamp() * 1000),
    }


def _name(*, name: str, first: bool) -> dict[str, Any]:
    """One author: given and family (the last word), sequence, no affiliation."""
    given, _, family = name.rpartition(" ")
    parts = {"given": given, "family": family} if given else {"family": family}
    return {**parts, "sequence": "first" if first else "additional", "affiliation": []}


def item(*, work: CrossrefWork, score: float) -> dict[str, Any]:
    """The work as one element of message.items."""
    day = {"date-parts": [[work.published.year, work.published.month, work.published.day]]}
    issns = (work.issn, *work.extra_issns)
    created = work.created_at
    out: dict[str, Any] = {
        "indexed": _stamp(when=work.indexed),
        "reference-count": 0,
        "publisher": work.publisher,
        "DOI": work.doi,
        "type": "journal-article",
        "created": _stamp(when=created),
        "source": "Crossref",
        "is-referenced-by-count": 0,
        "title": [work.title],
        "prefix": work.doi.partition("/")[0],
        "author": [_name(name=n, first=i == 0) for i, n in enumerate(work.authors)],
        "member": "0",
        "published-online": day,
        "container-title": [work.container_title],
        "deposited": _stamp(when=created),
        "score": score,
        "issued": day,
        "URL": f"http://dx.doi.org/{work.doi}",
        "ISSN": list(issns),
        "issn-type": [{"value": issn, "type": "electronic"} for issn in issns],
        "published": day,
    }
    if work.abstract is not None:
        out["abstract"] = f"<jats:p>{escape(work.abstract)}</jats:p>"
    return out


def parse_filters(*, raw: str) -> dict[str, date] | str:
    """filter=name:value,name:value as dates, or the name or value that cannot be read."""
    wanted: dict[str, date] = {}
    for part in (p for p in raw.split(",") if p):
        name, _, value = part.partition(":")
        if name not in DATE_FILTERS:
            return name
        try:
            pieces = [int(x) for x in value.split("-")] + [1, 1]  # 2024 is 2024-01-01
            wanted[name] = date(*pieces[:3])
        except (ValueError, TypeError, IndexError):
            return value
    return wanted


def selected(*, works: Sequence[CrossrefWork], filters: dict[str, date]) -> list[CrossrefWork]:
    """The works every filter keeps (index dates compared by day, inclusive at both ends)."""

    def keep(work: CrossrefWork) -> bool:
        indexed = work.indexed.astimezone(UTC).date()
        checks = {
            "from-index-date": lambda d: indexed >= d,
            "until-index-date": lambda d: indexed <= d,
            "from-pub-date": lambda d: work.published >= d,
            "until-pub-date": lambda d: work.published <= d,
            "from-created-date": lambda d: work.created_at.astimezone(UTC).date() >= d,
            "until-created-date": lambda d: work.created_at.astimezone(UTC).date() <= d,
        }
        return all(checks[name](value) for name, value in filters.items())

    return [work for work in works if keep(work)]


def ranked(*, works: Sequence[CrossrefWork], text: str) -> list[tuple[CrossrefWork, float]]:
    """With query.bibliographic: works sharing words with title and authors, best first, the
    overlap as score; without: all of them, oldest index first, score 0.0."""
    if not text.strip():
        return [(w, 0.0) for w in sorted(works, key=lambda w: w.indexed)]
    wanted = set(words(text=text))
    scored = []
    for work in works:
        overlap = len(wanted & set(words(text=" ".join((work.title, *work.authors)))))
        if overlap:
            scored.append((work, float(overlap)))
    return sorted(scored, key=lambda pair: -pair[1])


def work_list(
    *,
    page: Sequence[tuple[CrossrefWork, float]],
    total: int,
    rows: int,
    cursor: str | None,
    text: str,
    start: int,
) -> str:
    """The JSON body of one page; next-cursor only in deep paging."""
    message: dict[str, Any] = {"facets": {}}
    if cursor is not None:
        message["next-cursor"] = cursor
    message.update(
        {
            "total-results": total,
            "items": [item(work=w, score=s) for w, s in page],
            "items-per-page": rows,
            "query": {"start-index": start, "search-terms": text or None},
        }
    )
    body = {"status": "ok", "message-type": "work-list", "message-version": "1.0.0"}
    return json.dumps({**body, "message": message})


def validation_failure(*, kind: str, value: str, text: str) -> str:
    """Crossref's 400 body."""
    detail = {"type": kind, "value": value, "message": text}
    return json.dumps(
        {"status": "failed", "message-type": "validation-failure", "message": [detail]}
    )
