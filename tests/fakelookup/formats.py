"""The bodies both services answer: arXiv's Atom feed and Crossref's JSON, as they look."""

from __future__ import annotations

import json
import re
import textwrap
from collections.abc import Sequence
from typing import Any
from urllib.parse import quote
from xml.sax.saxutils import escape, quoteattr

from .records import Record

_NS = (
    'xmlns="http://www.w3.org/2005/Atom" xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/" '
    'xmlns:arxiv="http://arxiv.org/schemas/atom"'
)
# A fixed feed timestamp: answers are byte-for-byte repeatable.
_UPDATED = "2024-10-01T00:00:00-04:00"
_MODERN_ID_RE = re.compile(r"^\d{4}\.\d{4,5}(?:v\d+)?$")
_OLD_ID_RE = re.compile(r"^[a-z]+(?:-[a-z]+)?(?:\.[A-Z]{2})?/\d{7}(?:v\d+)?$")


def well_formed_arxiv_id(*, arxiv_id: str) -> bool:
    """Whether `arxiv_id` has the shape of an arXiv id, new (2409.01234) or old (cs/0112017)."""
    return bool(_MODERN_ID_RE.match(arxiv_id) or _OLD_ID_RE.match(arxiv_id))


def _wrapped(*, text: str, indent: str) -> str:
    """Text broken into lines of about 80 characters, as arXiv stores titles and abstracts."""
    return "\n".join(textwrap.wrap(text, width=80, subsequent_indent=indent))


def _entry(*, record: Record) -> str:
    """One <entry> of a feed for a record that is on arXiv."""
    vid = record.versioned_id or ""
    categories = record.categories or ("cs.DC",)
    listed = "".join(
        f'\n    <category term={quoteattr(category)} scheme="http://arxiv.org/schemas/atom"/>'
        for category in categories
    )
    stamp = f"{record.published}T12:00:00Z"
    authors = "".join(
        f"\n    <author>\n      <name>{escape(name)}</name>\n    </author>"
        for name in record.authors
    )
    doi = ""
    if record.doi:
        href = quoteattr(f"http://dx.doi.org/{record.doi}")
        doi = (
            f"\n    <arxiv:doi>{escape(record.doi)}</arxiv:doi>"
            f'\n    <link title="doi" href={href} rel="related"/>'
        )
    return (
        f"  <entry>\n    <id>http://arxiv.org/abs/{vid}</id>"
        f"\n    <updated>{stamp}</updated>\n    <published>{stamp}</published>"
        f"\n    <title>{escape(_wrapped(text=record.title, indent='  '))}</title>"
        # arXiv's summaries open with two spaces and end with a newline.
        f"\n    <summary>  {escape(_wrapped(text=record.abstract, indent=''))}\n</summary>"
        f"{authors}{doi}"
        f'\n    <link href="http://arxiv.org/abs/{vid}" rel="alternate" type="text/html"/>'
        f'\n    <link title="pdf" href="http://arxiv.org/pdf/{vid}" rel="related"'
        ' type="application/pdf"/>'
        f"\n    <arxiv:primary_category term={quoteattr(categories[0])}"
        ' scheme="http://arxiv.org/schemas/atom"/>'
        f"{listed}\n  </entry>\n"
    )


def _error_entry(*, arxiv_id: str) -> str:
    """The entry arXiv answers in place of results when an id_list names no paper."""
    if well_formed_arxiv_id(arxiv_id=arxiv_id):
        slug, text = f"id_not_found_for_{arxiv_id}", f"id {arxiv_id} not found"
    else:
        slug, text = f"incorrect_id_format_for_{arxiv_id}", f"incorrect id format for {arxiv_id}"
    url = escape(f"http://arxiv.org/api/errors#{quote(slug, safe='/._-')}")
    return (
        f"  <entry>\n    <id>{url}</id>\n    <title>Error</title>"
        f"\n    <summary>{escape(text)}</summary>\n    <updated>{_UPDATED}</updated>"
        f'\n    <link href="{url}" rel="alternate" type="text/html"/>'
        "\n    <author>\n      <name>arXiv api core</name>\n    </author>\n  </entry>\n"
    )


def _feed(*, query: str, total: int, start: int, entries: Sequence[str]) -> str:
    """A whole feed around its entries."""
    return (
        f'<?xml version="1.0" encoding="UTF-8"?>\n<feed {_NS}>\n'
        f"  <id>https://arxiv.org/api/fake</id>\n  <title>arXiv Query: {escape(query)}</title>\n"
        f"  <updated>{_UPDATED}</updated>\n"
        f"  <link href={quoteattr('https://arxiv.org/api/query?' + query)}"
        ' type="application/atom+xml"/>\n'
        f"  <opensearch:itemsPerPage>{len(entries)}</opensearch:itemsPerPage>\n"
        f"  <opensearch:totalResults>{total}</opensearch:totalResults>\n"
        f"  <opensearch:startIndex>{start}</opensearch:startIndex>\n"
        f"{''.join(entries)}</feed>\n"
    )


def results_feed(*, query: str, total: int, start: int, records: Sequence[Record]) -> str:
    """The feed for one page of results; `query` is the request's query string."""
    entries = [_entry(record=record) for record in records]
    return _feed(query=query, total=total, start=start, entries=entries)


def error_feed(*, query: str, arxiv_id: str) -> str:
    """The feed arXiv answers for an id it does not know (totalResults 1: the Error entry)."""
    return _feed(query=query, total=1, start=0, entries=[_error_entry(arxiv_id=arxiv_id)])


def broken_feed(*, query: str) -> str:
    """A feed cut off before its first entry (a dropped connection's body): not valid XML."""
    whole = _feed(query=query, total=1, start=0, entries=[])
    return whole[: whole.index("<opensearch:totalResults>") + len("<opensearch:totalRe")]


def _split_name(*, name: str) -> dict[str, Any]:
    """Crossref's given/family for a name: the last word is the family name."""
    given, _, family = name.rpartition(" ")
    return {"given": given, "family": family} if given else {"family": family}


def work(*, record: Record, score: float | None = None) -> dict[str, Any]:
    """One Crossref work record; `score` only in search results, as Crossref does."""
    doi = record.doi or ""
    authors = [
        {
            **_split_name(name=name),
            "sequence": "first" if i == 0 else "additional",
            "affiliation": [],
        }
        for i, name in enumerate(record.authors)
    ]
    date = {"date-parts": [record.date_parts]}
    item: dict[str, Any] = {
        "DOI": doi,
        "type": "journal-article",
        "prefix": doi.partition("/")[0],
        "publisher": "Fake Scholarly Press",
        "container-title": ["Journal of Invented Systems"],
        "title": [record.title],
        "author": authors,
        "published": date,
        "issued": date,
        "URL": record.url or f"https://doi.org/{doi}",
        "source": "Crossref",
    }
    if record.abstract:
        item["abstract"] = f"<jats:p>{escape(record.abstract)}</jats:p>"
    if score is not None:
        item["score"] = score
    return item


def work_body(*, record: Record) -> str:
    """The answer to GET /works/{doi}."""
    body = {
        "status": "ok",
        "message-type": "work",
        "message-version": "1.0.0",
        "message": work(record=record),
    }
    return json.dumps(body)


def work_list_body(*, ranked: Sequence[tuple[Record, float]], rows: int, text: str) -> str:
    """The answer to GET /works?query.bibliographic=…: the first `rows` of the ranking."""
    message = {
        "facets": {},
        "total-results": len(ranked),
        "items": [work(record=record, score=score) for record, score in ranked[:rows]],
        "items-per-page": rows,
        "query": {"start-index": 0, "search-terms": text or None},
    }
    body = {
        "status": "ok",
        "message-type": "work-list",
        "message-version": "1.0.0",
        "message": message,
    }
    return json.dumps(body)


def broken_json() -> str:
    """A work list cut off in its first item: not valid JSON."""
    return '{"status":"ok","message-type":"work-list","message":{"items":[{"DOI":"10.55'


def validation_failure(*, name: str, value: str) -> str:
    """Crossref's 400 body for a parameter it cannot read."""
    text = f"Integer specified as {value} but must be a positive integer."
    detail = {"type": "integer-not-valid", "value": value, "message": text}
    return json.dumps(
        {
            "status": "failed",
            "message-type": "validation-failure",
            "message": [{**detail, "name": name}],
        }
    )
