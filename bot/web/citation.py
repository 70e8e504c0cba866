"""What a reference manager's browser connector reads off the archive's pages: a COinS span
(an OpenURL ContextObject, Z39.88-2004, in its title) per paper, and Highwire Press
`citation_*` meta tags on a paper's page (what Zotero, Mendeley and Google Scholar read).

Values are returned as plain text; the templates escape them into attributes."""

from __future__ import annotations

from typing import Protocol
from urllib.parse import quote, urlencode

from bot.ingest.arxiv import arxiv_abs_url, arxiv_month, arxiv_pdf_url


class Citable(Protocol):
    """A paper as both the paper page (Paper) and the list pages (ArchivePost) hold it."""

    @property
    def title(self) -> str:
        """The title."""
        ...

    @property
    def authors(self) -> tuple[str, ...]:
        """The authors as written, "First Last"."""
        ...

    @property
    def url(self) -> str | None:
        """Where the paper is read."""
        ...

    @property
    def arxiv_id(self) -> str | None:
        """The canonical arXiv id."""
        ...

    @property
    def doi(self) -> str | None:
        """The normalised DOI."""
        ...


def _month(*, paper: Citable) -> tuple[int, int] | None:
    """(year, month) of an arXiv paper's id: the one date the archive knows a paper by."""
    return arxiv_month(arxiv_id=paper.arxiv_id) if paper.arxiv_id else None


def coins(*, paper: Citable) -> str:
    """The ContextObject of a COinS span's title: the KEV journal format ("preprint" on arXiv,
    else "article"), the title, each author, the date, and the DOI, arXiv id and URL as
    rft_id (info:doi/, info:arxiv/ and the URL itself), percent-encoded."""
    pairs = [
        ("ctx_ver", "Z39.88-2004"),
        ("rft_val_fmt", "info:ofi/fmt:kev:mtx:journal"),
        ("rft.genre", "preprint" if paper.arxiv_id else "article"),
        ("rft.atitle", paper.title),
    ]
    pairs += [("rft.au", name) for name in paper.authors]
    month = _month(paper=paper)
    if month:
        pairs.append(("rft.date", f"{month[0]:04d}-{month[1]:02d}"))
    if paper.arxiv_id:
        pairs.append(("rft.jtitle", "arXiv"))
    if paper.doi:
        pairs.append(("rft_id", f"info:doi/{paper.doi}"))
    if paper.arxiv_id:
        pairs.append(("rft_id", f"info:arxiv/{paper.arxiv_id}"))
    if paper.url:
        pairs.append(("rft_id", paper.url))
    return urlencode(pairs, quote_via=quote)


def highwire(*, paper: Citable, abstract: str) -> list[tuple[str, str]]:
    """The (name, content) pairs of a paper page's Highwire Press meta tags, in the order
    Google Scholar's guidelines list them; the PDF and abstract page only where known."""
    tags = [("citation_title", paper.title)]
    tags += [("citation_author", name) for name in paper.authors]
    month = _month(paper=paper)
    if month:
        day = f"{month[0]:04d}/{month[1]:02d}"
        tags += [("citation_publication_date", day), ("citation_date", day)]
    if paper.doi:
        tags.append(("citation_doi", paper.doi))
    if paper.arxiv_id:
        tags.append(("citation_arxiv_id", paper.arxiv_id))
        tags.append(("citation_abstract_html_url", arxiv_abs_url(arxiv_id=paper.arxiv_id)))
        tags.append(("citation_pdf_url", arxiv_pdf_url(arxiv_id=paper.arxiv_id)))
    elif paper.url:
        pdf = paper.url.lower().split("?")[0].endswith(".pdf")
        tags.append(("citation_pdf_url" if pdf else "citation_abstract_html_url", paper.url))
    if abstract:
        tags.append(("citation_abstract", abstract))
    return tags
