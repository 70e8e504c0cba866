"""Where a paper can be read: arXiv first, then its DOI, then its own URL (pure)."""

from __future__ import annotations

import re
from urllib.parse import quote

from bot.domain import Paper


def paper_links(*, paper: Paper) -> list[tuple[str, str]]:
    """(url, label) candidates in order of preference; platforms keep the first they accept."""
    links: list[tuple[str, str]] = []
    if paper.arxiv_id and (arxiv_id := paper.arxiv_id.strip()):
        url = "https://arxiv.org/abs/" + quote(arxiv_id, safe="/.", errors="replace")
        links.append((url, f"arXiv:{arxiv_id}"))
    if paper.doi and (doi := paper.doi.strip()):
        url = "https://doi.org/" + quote(doi, safe="/()._-:;", errors="replace")
        links.append((url, f"doi:{doi}"))
    if paper.url and paper.url.strip():
        links.append((paper.url.strip(), re.sub(r"^https?://", "", paper.url.strip(), flags=re.I)))
    return links
