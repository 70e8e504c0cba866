"""A watch as an admin types it, read into a WatchSpec, and where each kind is fetched from.

    arxiv cs.LG cs.CL keywords: diffusion, speculative decoding authors: Ada Lovelace
    arxiv keywords: speculative decoding authors: Ada Lovelace
    feed https://connect.biorxiv.org/biorxiv_xml/neuroscience keywords: sleep
    crossref 0028-0836 keywords: protein

Keywords and authors are lists separated by commas; each is matched as bot/sources/keywords
says (words in title or abstract; "Given Family" or "G. Family" against any author). An arXiv
watch of categories reads their announcement feed; one of keywords or authors alone (no
categories) is an arXiv search, read from arXiv's API.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from urllib.parse import quote, urlencode

from bot.ingest.keys import normalise_for_key
from bot.ports.sources import WatchKind, WatchSpec
from bot.sources.keywords import person_key

KINDS: tuple[WatchKind, ...] = ("arxiv", "feed", "crossref")
MAX_CATEGORIES = 10
MAX_FILTERS = 20  # keywords, and authors, per watch
MAX_FILTER = 100  # characters of one keyword or name
MAX_URL = 2_000
# One page of a journal's works first deposited since the last read, newest first: Crossref's
# largest page (a journal deposits far fewer in a week; more are logged, not asked for).
CROSSREF_ROWS = 1_000
# Fields Crossref's `select` documents, all a candidate reads ("published" is left out: older
# API versions refuse it; the print, online and issued dates give the same day).
CROSSREF_FIELDS = (
    "DOI,title,author,abstract,URL,subject,published-print,published-online,issued,created"
)
# One page of an arXiv search's newest submissions: a day of the broadest keyword fits, and a
# first read's week mostly (~2 KB an entry: 600 KB, under the fetcher's 5 MB cap).
API_RESULTS = 300

# An archive (cs, hep-th) or a subject class (cs.LG, q-bio.NC), as arXiv's feeds take them.
_CATEGORY_RE = re.compile(r"^[a-z]+(?:-[a-z]+)*(?:\.[A-Za-z]+(?:-[A-Za-z]+)*)?$", re.IGNORECASE)
_ISSN_RE = re.compile(r"^(\d{4})-?(\d{3}[\dX])$", re.IGNORECASE)
_MARKER_RE = re.compile(r"\b(keywords?|authors?):", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class SourceBases:
    """Where each kind of source is asked (Settings: the public services, or tests' fakes)."""

    arxiv_feed: str = "https://rss.arxiv.org"
    arxiv_api: str = "https://export.arxiv.org/api/query"  # the query endpoint itself
    crossref: str = "https://api.crossref.org"


class WatchTextError(ValueError):
    """What is wrong with a typed watch, in words for the person who typed it."""


def _issn(*, text: str) -> str | None:
    """An ISSN as NNNN-NNNC when its check digit is right, else None."""
    found = _ISSN_RE.match(text.strip())
    if found is None:
        return None
    digits = (found.group(1) + found.group(2)).upper()
    total = sum(int(d) * w for d, w in zip(digits[:7], range(8, 1, -1), strict=True))
    check = (11 - total % 11) % 11
    if digits[7] != ("X" if check == 10 else str(check)):
        return None
    return f"{digits[:4]}-{digits[4:]}"


def _filters(*, text: str, what: str) -> tuple[str, ...]:
    """A comma-separated list, spaces squashed, control characters dropped (a keyword is shown
    back on terminals too, where an escape sequence would run), duplicates (by case) dropped."""
    items: dict[str, str] = {}
    for part in text.split(","):
        item = " ".join("".join(c if c.isprintable() else " " for c in part).split())
        if not item:
            continue
        if len(item) > MAX_FILTER:
            raise WatchTextError(f"each of the {what} is at most {MAX_FILTER} characters")
        items.setdefault(item.lower(), item)
    if len(items) > MAX_FILTERS:
        raise WatchTextError(f"a watch takes at most {MAX_FILTERS} {what}")
    return tuple(items.values())


def _target(*, kind: WatchKind, words: list[str]) -> str:
    """The watch's target from the words after its kind."""
    if kind == "arxiv":
        if not words:
            return ""  # an arXiv search: read_watch checks it has keywords or authors
        cats = [w.strip(",") for w in words if w.strip(",")]
        bad = next((c for c in cats if not _CATEGORY_RE.match(c)), None)
        if bad is not None:
            raise WatchTextError(f"{bad[:40]!r} is not an arXiv category (like cs.LG, q-bio.NC)")
        cats = list(dict.fromkeys(cats))
        if len(cats) > MAX_CATEGORIES:
            raise WatchTextError(f"a watch takes at most {MAX_CATEGORIES} categories")
        return "+".join(cats)
    if len(words) != 1:
        thing = "one feed address" if kind == "feed" else "one journal ISSN"
        raise WatchTextError(f"give {thing}")
    if kind == "feed":
        url = words[0].strip("<>")
        if not url.isprintable():
            raise WatchTextError("a feed's address has no control characters")
        if not url.lower().startswith(("https://", "http://")) or len(url) > MAX_URL:
            raise WatchTextError("a feed's address starts with https:// (or http://)")
        return url
    issn = _issn(text=words[0])
    if issn is None:
        raise WatchTextError(f"{words[0][:40]!r} is not an ISSN (like 0028-0836)")
    return issn


def read_watch(*, text: str) -> WatchSpec:
    """The watch `text` describes (what follows `watch add`); WatchTextError says what is
    wrong."""
    head, *rest = _MARKER_RE.split(text, maxsplit=0) or [""]
    words = head.split()
    if not words or words[0].lower() not in KINDS:
        raise WatchTextError("start with arxiv, feed or crossref")
    kind: WatchKind = KINDS[KINDS.index(words[0].lower())]
    target = _target(kind=kind, words=words[1:])
    keywords: tuple[str, ...] = ()
    authors: tuple[str, ...] = ()
    for marker, value in zip(rest[::2], rest[1::2], strict=True):
        if marker.lower().startswith("keyword"):
            keywords = (*keywords, *_filters(text=value, what="keywords"))
        else:
            authors = (*authors, *_filters(text=value, what="authors"))
    spec = WatchSpec(
        kind=kind,
        target=target,
        keywords=tuple(dict.fromkeys(keywords)),
        authors=tuple(dict.fromkeys(authors)),
    )
    if searches_arxiv(spec=spec) and not _search_terms(spec=spec):
        if spec.keywords or spec.authors:
            raise WatchTextError("an arXiv search needs keywords or authors with letters or digits")
        raise WatchTextError(
            "name at least one arXiv category, like cs.LG, or keywords or authors to search for"
        )
    return spec


def searches_arxiv(*, spec: WatchSpec) -> bool:
    """Whether the watch is an arXiv search (keywords or authors, no categories), read from
    arXiv's API rather than an announcement feed."""
    return spec.kind == "arxiv" and not spec.target


def _search_terms(*, spec: WatchSpec) -> list[str]:
    """The watch's keywords and authors as terms of arXiv's search_query, duplicates dropped.

    Each is a quoted phrase of the words match_filters compares: lower-case, so none reads as
    an operator (arXiv's AND, OR, ANDNOT are upper-case), and with quotes, brackets and other
    punctuation turned to spaces, so nothing typed can close the phrase or start a term of its
    own. An author is searched by family name (arXiv writes "A. Lovelace" and "Ada Lovelace");
    match_filters checks the initial on what comes back."""
    terms: list[str] = []
    for keyword in spec.keywords:
        words = normalise_for_key(text=keyword)
        if words:
            terms += [f'ti:"{words}"', f'abs:"{words}"']
    for author in spec.authors:
        person = person_key(name=author)
        if person is not None:
            terms.append(f'au:"{person[0]}"')
    return list(dict.fromkeys(terms))


def arxiv_search_query(*, spec: WatchSpec) -> str:
    """The arXiv API's search_query for the watch: any of its keywords (title or abstract) or
    authors, as match_filters passes either; within its categories when it names some (cat:
    takes an archive or a subject class)."""
    either = " OR ".join(_search_terms(spec=spec))
    if not spec.target:
        return either
    within = " OR ".join(f"cat:{category}" for category in spec.target.split("+"))
    return f"({within}) AND ({either})" if either else within


def watch_text(*, spec: WatchSpec) -> str:
    """The spec as it would be typed (read_watch gives it back)."""
    target = " ".join(spec.target.split("+")) if spec.kind == "arxiv" else spec.target
    parts: list[str] = [spec.kind, target] if target else [spec.kind]
    if spec.keywords:
        parts.append("keywords: " + ", ".join(spec.keywords))
    if spec.authors:
        parts.append("authors: " + ", ".join(spec.authors))
    return " ".join(parts)


def source_url(*, spec: WatchSpec, bases: SourceBases, since: date) -> str:
    """Where the watch's source is read: arXiv's announcement feed of its categories, arXiv's
    API for a search (its newest submissions first; the reader keeps the recent ones), the
    feed itself, or a journal's works first deposited since `since` (newest first: a work's
    metadata re-indexed later is not news)."""
    if searches_arxiv(spec=spec):
        search = urlencode(
            {
                "search_query": arxiv_search_query(spec=spec),
                "sortBy": "submittedDate",
                "sortOrder": "descending",
                "max_results": str(API_RESULTS),
            },
            safe=":",
        )
        return f"{bases.arxiv_api}?{search}"
    if spec.kind == "arxiv":
        return f"{bases.arxiv_feed.rstrip('/')}/rss/{quote(spec.target, safe='+.-')}"
    if spec.kind == "feed":
        return spec.target
    query = urlencode(
        {
            "filter": f"from-created-date:{since.isoformat()}",
            "sort": "created",
            "order": "desc",
            "rows": str(CROSSREF_ROWS),
            # The fields a candidate is read from: whole records carry reference lists, and a
            # busy journal's 1,000 of them outgrew the fetcher's 5 MB cap.
            "select": CROSSREF_FIELDS,
        }
    )
    return f"{bases.crossref.rstrip('/')}/journals/{spec.target}/works?{query}"
