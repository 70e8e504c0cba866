"""Asking arXiv (search by title, by an abstract's opening phrase) and Crossref (a
bibliographic query) for the records that may be a paper we hold in part."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import replace
from datetime import date
from typing import Any
from urllib.parse import urlencode

from bot.domain import PaperDraft
from bot.enrich.fetch import NAMES, Fetcher, Unreachable
from bot.enrich.match import Known, words
from bot.ingest.arxiv import canonical_arxiv_id
from bot.ingest.crossref import crossref_work
from bot.ingest.drafts import build_draft

log = logging.getLogger(__name__)
ROWS = 5
PHRASE_WORDS = 10  # an abstract's opening words: enough to be its own, few enough to match
TITLE_WORDS = 12


class Malformed(Exception):
    """A service answered something that is not its format (a cut or garbled body)."""

    def __init__(self, *, service: str, why: str) -> None:
        """Name the service and say what was wrong."""
        super().__init__(f"{service} answered something unreadable: {why}")
        self.service = service


def _phrase(*, text: str, limit: int) -> str:
    """The first `limit` words of a text, without the word an ellipsis cut."""
    found = words(text.rstrip().removesuffix("…").removesuffix("..."))
    if text.rstrip().endswith(("…", "...")) and found:
        found = found[:-1]
    return " ".join(found[:limit])


def arxiv_queries(*, known: Known) -> list[str]:
    """search_query values: the abstract's opening phrase, and the title when it is real."""
    queries = []
    if len(opening := _phrase(text=known.abstract, limit=PHRASE_WORDS).split()) >= 6:
        queries.append(f'abs:"{" ".join(opening)}"')
    if not known.title_derived and (title := _phrase(text=known.title, limit=TITLE_WORDS)):
        queries.append(f'ti:"{title}"')
    return queries


def crossref_query(*, known: Known) -> str | None:
    """The bibliographic query: the title (when real) with the authors' names."""
    if known.title_derived:
        return None
    title = _phrase(text=known.title, limit=TITLE_WORDS)
    return " ".join([title, *known.authors[:3]]).strip() or None


def _published(*, value: Any) -> date | None:
    """A feed entry's date, from "2024-05-17T12:00:00Z"."""
    try:
        return date.fromisoformat(str(value)[:10])
    except ValueError:
        return None


def arxiv_records(*, feed: str) -> list[PaperDraft]:
    """The records of an arXiv API answer (its "Error" entries left out)."""
    import feedparser  # only enrichment reads Atom: `paperclub run` need not load it

    parsed = feedparser.parse(feed)
    if parsed.get("bozo") and not parsed.entries:
        raise Malformed(service="arXiv", why=str(parsed.get("bozo_exception", "not a feed")))
    found = []
    for entry in parsed.entries:
        arxiv_id = canonical_arxiv_id(text=str(entry.get("id", "")))
        if arxiv_id is None or str(entry.get("title", "")).strip().lower() == "error":
            continue
        draft = build_draft(
            origin=f"arxiv:{arxiv_id}",
            title=str(entry.get("title", "")),
            abstract=str(entry.get("summary", "")),
            authors=[str(a.get("name", "")) for a in entry.get("authors", [])],
            arxiv_id=arxiv_id,
            doi=str(entry.get("arxiv_doi", "")),
        )
        if isinstance(draft, PaperDraft):
            found.append(replace(draft, published=_published(value=entry.get("published"))))
    return found


def crossref_records(*, body: str) -> list[PaperDraft]:
    """The works of a Crossref list answer."""
    try:
        items = json.loads(body)["message"]["items"]
    except (ValueError, KeyError, TypeError) as exc:
        raise Malformed(service="Crossref", why=type(exc).__name__) from None
    return [d for d in (crossref_work(work=item) for item in items or []) if d is not None]


class Sources:
    """arXiv and Crossref, where the settings say, through one paced and cached fetcher."""

    def __init__(self, *, fetcher: Fetcher, arxiv_url: str, crossref_url: str, contact: str):
        """Where to ask, and who is asking (Crossref's polite pool wants a mailto)."""
        self.fetcher = fetcher
        self.arxiv_url = arxiv_url
        self.crossref_url = crossref_url.rstrip("/")
        self.contact = contact
        self.down: dict[str, str] = {}  # service -> why, once it could not be reached
        self._causes: dict[str, str] = {}  # service -> the bare cause ("HTTP 503")

    def candidates(self, *, known: Known) -> list[PaperDraft]:
        """Every record either service offers for the paper. A service that is down is skipped
        from then on; Unreachable only when every service the paper needs is down."""
        services = self._services(known)
        if services and all(name in self.down for name in services):
            raise self._all_down(services=services)
        found: list[PaperDraft] = []
        for query in arxiv_queries(known=known):
            url = f"{self.arxiv_url}?{urlencode({'search_query': query, 'max_results': ROWS})}"
            found += self._records(service="arxiv", url=url, read=lambda b: arxiv_records(feed=b))
        if (bibliographic := crossref_query(known=known)) is not None:
            params = {"query.bibliographic": bibliographic, "rows": str(ROWS)}
            if self.contact:
                params["mailto"] = self.contact
            url = f"{self.crossref_url}/works?{urlencode(params)}"
            found += self._records(
                service="crossref", url=url, read=lambda b: crossref_records(body=b)
            )
        if services and all(name in self.down for name in services):
            raise self._all_down(services=services)
        return found

    def _all_down(self, *, services: list[str]) -> Unreachable:
        """Why a paper could not be asked, whole in itself (each paper of `enrich --json`
        carries it, however long ago the service went down): every service and its cause."""
        causes = [self._causes[name] for name in services]
        if len(set(causes)) == 1:
            why = causes[0]
        else:
            why = "; ".join(
                f"{NAMES[name]}: {cause}" for name, cause in zip(services, causes, strict=True)
            )
        return Unreachable(service=" and ".join(NAMES[name] for name in services), why=why)

    def _services(self, known: Known) -> list[str]:
        """The services a paper would be asked of."""
        names = ["arxiv"] if arxiv_queries(known=known) else []
        return names + (["crossref"] if crossref_query(known=known) is not None else [])

    def _records(
        self, *, service: str, url: str, read: Callable[[str], list[PaperDraft]]
    ) -> list[PaperDraft]:
        """One service's records for one URL; nothing once the service is known to be down,
        nor from an answer that cannot be read (said in the log, not cached)."""
        if service in self.down:
            return []
        try:
            return self.fetcher.get(service=service, url=url, read=read) or []
        except Unreachable as exc:
            self.down[service] = str(exc)
            self._causes[service] = exc.why
        except Malformed as exc:
            log.warning("%s (for %s)", exc, url)
        return []
