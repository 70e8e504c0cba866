"""What each request is answered: arXiv's query endpoint, Crossref's /works, and faults."""

from __future__ import annotations

import re
from typing import NamedTuple
from urllib.parse import unquote

from . import formats
from .records import Record
from .search import arxiv_predicate, crossref_ranked

ATOM = "application/atom+xml; charset=utf-8"
JSON = "application/json"
TEXT = "text/plain; charset=utf-8"
REASONS = {
    429: "Too Many Requests",
    500: "Internal Server Error",
    502: "Bad Gateway",
    503: "Service Unavailable",
    504: "Gateway Timeout",
}
_VERSION_RE = re.compile(r"v\d+$")

Params = dict[str, list[str]]


class Answer(NamedTuple):
    """A status, a content type, a body and extra headers."""

    status: int
    kind: str
    body: str
    headers: dict[str, str]


def _int_param(*, params: Params, name: str, default: int) -> int | None:
    """A non-negative integer parameter, its default when absent, None when unreadable."""
    raw = params.get(name, [str(default)])[0].strip()
    return int(raw) if raw.isdigit() else None


def failure(*, status: int, retry_after: int | None) -> Answer:
    """An HTTP error as a busy service sends it, with Retry-After when asked."""
    extra = {} if retry_after is None else {"Retry-After": str(retry_after)}
    return Answer(status, TEXT, REASONS.get(status, "Error"), extra)


def malformed(*, service: str, query: str) -> Answer:
    """A 200 whose body breaks off: a feed cut before its entries, or JSON cut mid-item."""
    if service == "arxiv":
        return Answer(200, ATOM, formats.broken_feed(query=query), {})
    return Answer(200, JSON, formats.broken_json(), {})


def not_found() -> Answer:
    """Crossref's 404, also what the fake answers for a path neither service has."""
    return Answer(404, TEXT, "Resource not found.", {})


def _by_ids(*, records: list[Record], ids: list[str], query: str) -> list[Record] | Answer:
    """The records an id_list names, in its order; the Error feed when one is unknown."""
    by_id = {record.base_id: record for record in records if record.arxiv_id}
    found: list[Record] = []
    for arxiv_id in ids:
        base = _VERSION_RE.sub("", arxiv_id)
        if not formats.well_formed_arxiv_id(arxiv_id=arxiv_id) or base not in by_id:
            return Answer(200, ATOM, formats.error_feed(query=query, arxiv_id=arxiv_id), {})
        found.append(by_id[base])
    return found


def _sorted(*, records: list[Record], params: Params) -> list[Record]:
    """sortBy submittedDate or lastUpdatedDate orders by date (sortOrder, descending unless
    "ascending"); relevance, the default, keeps the catalogue's order. The fake holds one date."""
    if params.get("sortBy", ["relevance"])[0] not in ("submittedDate", "lastUpdatedDate"):
        return records
    descending = params.get("sortOrder", ["descending"])[0] != "ascending"
    return sorted(records, key=lambda record: record.published, reverse=descending)


def arxiv(*, records: list[Record], query: str, params: Params) -> Answer:
    """The arXiv API: search_query and/or id_list (both: the listed papers that match)."""
    start = _int_param(params=params, name="start", default=0)
    size = _int_param(params=params, name="max_results", default=10)
    if start is None or size is None:
        return Answer(400, TEXT, "start and max_results must be non-negative integers", {})
    ids = [i.strip() for i in ",".join(params.get("id_list", [])).split(",") if i.strip()]
    search = " ".join(params.get("search_query", [])).strip()
    if ids:
        listed = _by_ids(records=records, ids=ids, query=query)
        if isinstance(listed, Answer):
            return listed
        matched = listed
    elif search:
        matched = [record for record in records if record.arxiv_id]
    else:
        matched = []  # neither parameter: arXiv answers an empty feed
    if search:
        predicate = arxiv_predicate(query=search)
        matched = [record for record in matched if predicate(record)]
    matched = _sorted(records=matched, params=params)
    page = matched[start : start + size]
    body = formats.results_feed(query=query, total=len(matched), start=start, records=page)
    return Answer(200, ATOM, body, {})


def crossref(*, records: list[Record], rest: str, params: Params) -> Answer:
    """Crossref: /works (a ranked search) and /works/{doi} (one record or 404)."""
    if rest.startswith("/works/"):
        doi = unquote(rest.removeprefix("/works/")).strip().lower()
        for record in records:
            if record.doi and record.doi.lower() == doi:
                return Answer(200, JSON, formats.work_body(record=record), {})
        return not_found()
    if rest not in ("/works", "/works/"):
        return not_found()
    rows = _int_param(params=params, name="rows", default=20)
    if rows is None or rows > 1000:
        bad = formats.validation_failure(name="rows", value=params.get("rows", [""])[0])
        return Answer(400, JSON, bad, {})
    # mailto, select and the other parameters change nothing the fake models.
    text = " ".join(params.get("query.bibliographic", []) + params.get("query", []))
    ranked = crossref_ranked(records=records, text=text)
    return Answer(200, JSON, formats.work_list_body(ranked=ranked, rows=rows, text=text), {})
