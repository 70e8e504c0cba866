"""Papers to Zotero items and back, as pure functions of their JSON.

A paper with an arXiv id is a `preprint` (repository arXiv, archiveID "arXiv:<id>", and
"arXiv: <id>" in `extra`, the line Zotero's own arXiv translator writes and Better BibTeX
reads); any other a `journalArticle`. Authors "First Last" become {firstName, lastName} split at
the last space, one-word names {name} (Zotero's single-field mode). Text goes as plain text:
Zotero stores fields verbatim and never renders them as markup; control characters are dropped
(the server strips all but tab and line feed too), and every value is cut to what the server
takes rather than refused whole: 65,535 UTF-8 bytes a field, 255 bytes a creator's name, 255
characters a tag or collection name (dataserver's Zotero_Items::$maxDataValueLength, Creator
and Zotero_Tags/Collections::$maxLength).

Back: an item becomes a draft through bot.ingest's build_draft, so a Zotero import is cleaned
and deduplicated (DOI, arXiv id, title) like every other import.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Mapping
from datetime import date
from typing import Any

from bot.domain import Paper, PaperDraft
from bot.ingest.arxiv import arxiv_abs_url, canonical_arxiv_id, find_arxiv_id
from bot.ingest.drafts import build_draft

TAG_MAX = 255  # characters of a tag or a collection name
FIELD_MAX_BYTES = 65_535  # UTF-8 bytes of one field's value
CREATOR_MAX_BYTES = 255  # UTF-8 bytes of a creator's first, last or single name
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_DATE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})")
_EXTRA_LINE = re.compile(r"^\s*(arXiv|DOI)\s*:\s*(\S+)\s*$", re.IGNORECASE | re.MULTILINE)


def plain(*, text: str) -> str:
    """Text as Zotero keeps it: control characters but tab and line feed dropped."""
    return _CONTROL.sub("", text)


def fit(*, text: str, max_bytes: int = FIELD_MAX_BYTES) -> str:
    """Plain text cut to at most `max_bytes` of UTF-8, never inside a character."""
    return plain(text=text).encode("utf-8")[:max_bytes].decode("utf-8", "ignore")


def collection_name(*, name: str) -> str:
    """A collection name as Zotero will keep it: plain, one line, at most TAG_MAX characters
    (what is looked for must be what is stored, or every look-up makes another)."""
    return " ".join(plain(text=name).split())[:TAG_MAX]


def creator(*, name: str) -> dict[str, str]:
    """A Zotero author from a display name: "Ada King Lovelace" -> first "Ada King", last
    "Lovelace"; one word -> {"name": ...}."""
    clean = " ".join(plain(text=name).split())
    first, _, last = clean.rpartition(" ")
    if not first:
        return {"creatorType": "author", "name": fit(text=clean, max_bytes=CREATOR_MAX_BYTES)}
    return {
        "creatorType": "author",
        "firstName": fit(text=first, max_bytes=CREATOR_MAX_BYTES),
        "lastName": fit(text=last, max_bytes=CREATOR_MAX_BYTES),
    }


def tag_list(*, tags: Iterable[str]) -> list[dict[str, str]]:
    """Zotero's [{"tag": ...}], each cut to TAG_MAX, blanks and repeats dropped, order kept."""
    seen: dict[str, None] = {}
    for tag in tags:
        clean = " ".join(plain(text=tag).split())[:TAG_MAX]
        if clean:
            seen.setdefault(clean, None)
    return [{"tag": tag} for tag in seen]


def paper_item(
    *,
    paper: Paper,
    tags: Iterable[str] = (),
    collections: Iterable[str] = (),
    published: date | None = None,
) -> dict[str, Any]:
    """The editable JSON of a new Zotero item for `paper` (no key: the client adds one)."""
    item: dict[str, Any] = {
        "itemType": "preprint" if paper.arxiv_id else "journalArticle",
        "title": fit(text=paper.title),
        "creators": [creator(name=name) for name in paper.authors if name.strip()],
        "abstractNote": fit(text=paper.abstract),
        "date": published.isoformat() if published else "",
        "DOI": fit(text=paper.doi or ""),
        "url": fit(
            text=paper.url or (arxiv_abs_url(arxiv_id=paper.arxiv_id) if paper.arxiv_id else "")
        ),
        "extra": f"arXiv: {paper.arxiv_id}" if paper.arxiv_id else "",
        "tags": tag_list(tags=tags),
        "collections": list(collections),
    }
    if paper.arxiv_id:
        item["repository"] = "arXiv"
        item["archiveID"] = f"arXiv:{paper.arxiv_id}"
    return item


def _name(*, person: Mapping[str, Any]) -> str:
    """A creator's display name: "First Last", or the single-field name."""
    if person.get("name"):
        return str(person["name"])
    return " ".join(str(person.get(k) or "") for k in ("firstName", "lastName")).strip()


def _published(*, value: str) -> date | None:
    """A full ISO date at the start of Zotero's `date` field; None for "2024" or free text."""
    match = _DATE.match(value.strip())
    if match is None:
        return None
    try:
        return date(int(match[1]), int(match[2]), int(match[3]))
    except ValueError:
        return None


def item_draft(*, item: Mapping[str, Any]) -> PaperDraft | None:
    """The paper a Zotero item (full JSON or its `data`) names; None for notes, attachments
    and items naming nothing."""
    data = item.get("data", item)
    if not isinstance(data, Mapping) or data.get("itemType") in ("note", "attachment", None):
        return None
    extra = str(data.get("extra") or "")
    told = {kind.lower(): value for kind, value in _EXTRA_LINE.findall(extra)}
    archive = str(data.get("archiveID") or "")
    arxiv = told.get("arxiv") or (canonical_arxiv_id(text=archive) if archive else None)
    arxiv = arxiv or find_arxiv_id(text=str(data.get("url") or "")) or ""
    creators = [c for c in data.get("creators") or [] if isinstance(c, Mapping)]
    # Authors; an edited volume with none has its editors and contributors instead.
    authors = [c for c in creators if c.get("creatorType", "author") == "author"] or creators
    draft = build_draft(
        origin=f"zotero:{data.get('key', '')}",
        title=str(data.get("title") or ""),
        abstract=str(data.get("abstractNote") or ""),
        authors=[n for n in (_name(person=c) for c in authors) if n],
        url=str(data.get("url") or ""),
        arxiv_id=arxiv,
        doi=str(data.get("DOI") or told.get("doi") or ""),
    )
    if not isinstance(draft, PaperDraft):
        return None
    return dataclasses.replace(draft, published=_published(value=str(data.get("date") or "")))
