"""CSL-JSON: the CSL data schema's items (what Zotero, Pandoc, Mendeley and citation processors
exchange), and our own export's "custom" fields read back."""

from __future__ import annotations

import re
from typing import Any

from bot.domain import PaperDraft, Rejection
from bot.ingest.arxiv import find_arxiv_id
from bot.ingest.drafts import Parsed, build_draft
from bot.ingest.exported import BIB_LIST, BIB_STATUS, BIB_TITLE_DERIVED, with_exported
from bot.ingest.jsonfmt import kind_of, parse_items, text_of
from bot.ingest.names import csl_stored

# The CSL item types a file's first items are recognised by (with "id"): the common ones.
_TYPES = (
    "article|article-journal|article-magazine|article-newspaper|book|chapter|dataset|"
    "document|entry|manuscript|paper-conference|report|thesis|webpage|post|software|speech"
)
SNIFF_RE = re.compile(rf'"type"\s*:\s*"(?:{_TYPES})"')
_ID_RE = re.compile(r'"id"\s*:')
# The key under "custom" holding the arXiv id: CSL has no variable for it ("number" holds
# "arXiv:<id>" for Zotero, as its own CSL export writes a preprint's archive id).
CSL_ARXIV = "arxiv-id"


def looks_like_csl(*, head: str) -> bool:
    """Whether a JSON document's opening reads as CSL items: a CSL "type" and an "id"."""
    return bool(SNIFF_RE.search(head) and _ID_RE.search(head))


def _authors(*, value: Any) -> tuple[str, ...]:
    """Names from a CSL name list: objects ({family, given} or {literal}); plain strings too."""
    if not isinstance(value, list):
        return ()
    names = (
        csl_stored(value=item) if isinstance(item, dict) else text_of(value=item) for item in value
    )
    return tuple(name for name in names if name)


def _arxiv(*, item: dict[str, Any], custom: dict[str, Any]) -> str:
    """The arXiv id: our custom field, else "arXiv:<id>" in number, note or the URL or DOI."""
    ours = custom.get(CSL_ARXIV)
    if isinstance(ours, str) and ours:
        return ours
    for key in ("number", "archive_location", "note", "URL", "DOI"):
        found = find_arxiv_id(text=text_of(value=item.get(key)))
        if found:
            return found
    return ""


def _draft(*, item: Any, origin: str) -> PaperDraft | Rejection:
    """A draft from one CSL item."""
    if not isinstance(item, dict):
        return Rejection(origin=origin, reason=f"entry is {kind_of(value=item)}, not an object")
    raw_custom = item.get("custom")
    custom: dict[str, Any] = raw_custom if isinstance(raw_custom, dict) else {}
    draft = build_draft(
        origin=origin,
        title=text_of(value=item.get("title")),
        abstract=text_of(value=item.get("abstract")),
        authors=_authors(value=item.get("author")),
        url=text_of(value=item.get("URL") or item.get("url")),
        arxiv_id=_arxiv(item=item, custom=custom),
        doi=text_of(value=item.get("DOI") or item.get("doi")),
    )
    if isinstance(draft, Rejection):
        return draft
    status, name = custom.get(BIB_STATUS), custom.get(BIB_LIST)
    return with_exported(
        draft=draft,
        status=status if isinstance(status, str) else "",
        list_name=name if isinstance(name, str) else "",
        title_derived=custom.get(BIB_TITLE_DERIVED) is True,
    )


def parse_csl_json(*, path: str, text: str) -> Parsed:
    """Drafts and rejections for a CSL-JSON document (a list of items)."""
    return parse_items(path=path, text=text, draft_of=_draft)
