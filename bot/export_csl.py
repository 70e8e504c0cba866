"""The CSL-JSON export (the CSL data schema, v1.0.2): what citation processors, Zotero, Pandoc
and Mendeley read. Our own fields go in "custom", the schema's place for key-value data."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from bot.domain import PaperRecord
from bot.ingest.arxiv import arxiv_month
from bot.ingest.csljson import CSL_ARXIV
from bot.ingest.exported import BIB_LIST, BIB_STATUS, BIB_TITLE_DERIVED
from bot.ingest.names import csl_name


def csl_item(*, record: PaperRecord) -> dict[str, Any]:
    """One paper as a CSL item: "article" (a preprint) when on arXiv, else "document"."""
    paper = record.paper
    item: dict[str, Any] = {
        "type": "article" if paper.arxiv_id else "document",
        "id": f"paperclub-{paper.id}",
        "title": paper.title,
    }
    if paper.authors:
        item["author"] = [csl_name(name=name) for name in paper.authors]
    if paper.abstract:
        item["abstract"] = paper.abstract
    if paper.doi:
        item["DOI"] = paper.doi
    if paper.url:
        item["URL"] = paper.url
    custom: dict[str, Any] = {BIB_STATUS: paper.status.value}
    if paper.arxiv_id:
        item["number"] = f"arXiv:{paper.arxiv_id}"
        item["publisher"] = "arXiv"
        month = arxiv_month(arxiv_id=paper.arxiv_id)
        if month:
            item["issued"] = {"date-parts": [list(month)]}
        custom[CSL_ARXIV] = paper.arxiv_id
    if record.list_name:
        custom[BIB_LIST] = record.list_name
    if paper.title_derived:
        custom[BIB_TITLE_DERIVED] = True
    item["custom"] = custom
    return item


def to_csl_json(*, records: Sequence[PaperRecord]) -> str:
    """A CSL-JSON array, one item per paper."""
    items = [csl_item(record=r) for r in records]
    return json.dumps(items, ensure_ascii=False, indent=2) + "\n"
