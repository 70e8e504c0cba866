"""What every parser shares: building a clean draft from raw fields, and file-level checks."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from bot.domain import PaperDraft, Rejection
from bot.ingest.arxiv import arxiv_abs_url, canonical_arxiv_id
from bot.ingest.clean import clean_text
from bot.ingest.doi import doi_url, normalise_doi
from bot.ingest.titles import clip_title, derive_title

Parsed = tuple[list[PaperDraft], list[Rejection]]

# The longest title a draft may carry; longer ones are clipped at a word boundary.
MAX_TITLE = 300
# The DOI prefix arXiv registers its own papers under.
_ARXIV_DOI_PREFIX = "10.48550/arxiv."
_AUTHOR_SPLIT_RE = re.compile(r"\s*;\s*|\s+and\s+|\s*&\s*|\s*\n\s*", re.IGNORECASE)


def origin_at(*, path: str, line: int) -> str:
    """The origin string of a line in a file: `path:line`."""
    return f"{path}:{line}"


def file_problem(*, path: str, text: str) -> Rejection | None:
    """A rejection for a file that is empty or binary rather than text, else None."""
    if not text.strip():
        return Rejection(origin=origin_at(path=path, line=1), reason="empty file")
    head = text[:8192]
    junk = sum(
        1 for c in head if c == "\ufffd" or (unicodedata.category(c) == "Cc" and c not in "\t\n\r")
    )
    if "\x00" in head or junk > len(head) // 10:
        return Rejection(origin=origin_at(path=path, line=1), reason="binary data, not a text file")
    return None


def flip_name(*, name: str) -> str:
    """Turn "Last, First" into "First Last"; other names stay as written."""
    last, comma, first = name.partition(",")
    if not comma or not first.strip() or "," in first:
        return name.strip()
    # "Smith, Jr., John" and friends are rare enough to keep as written.
    return f"{first.strip()} {last.strip()}"


def split_authors(*, text: str) -> tuple[str, ...]:
    """Author names from one string: separated by ';', ' and ', '&', newlines or commas."""
    names: list[str] = []
    for part in _AUTHOR_SPLIT_RE.split(text):
        part = part.strip().strip(",").strip()
        if not part:
            continue
        pieces = [p.strip() for p in re.split(r",\s*(?:and\s+)?", part) if p.strip()]
        if len(pieces) == 2 and " " not in pieces[0] and len(pieces[1].split()) <= 2:
            # One "Last, First" name rather than two one-word names.
            names.append(f"{pieces[1]} {pieces[0]}")
        else:
            names.extend(pieces)
    return tuple(names)


def clean_authors(*, authors: Iterable[str]) -> tuple[str, ...]:
    """Each author name cleaned of TeX and spacing; empty names dropped."""
    cleaned = (clean_text(text=name).strip(" ,;") for name in authors)
    return tuple(name for name in cleaned if name)


def _web_url(*, url: str) -> str | None:
    """`url` as an absolute http(s) URL, or None when it is no web address ("n/a", an id)."""
    if re.fullmatch(r"https?://[^\s/]+\S*", url, re.IGNORECASE):
        return url
    if re.fullmatch(r"(?:www\.|arxiv\.org/|doi\.org/)\S+", url, re.IGNORECASE):
        return "https://" + url
    return None


def _id_fields(*, url: str, arxiv_id: str, doi: str) -> tuple[str | None, str | None, str | None]:
    """Canonical (url, arxiv_id, doi), each also filled from the others where they tell it."""
    arxiv = canonical_arxiv_id(text=arxiv_id) if arxiv_id else None
    norm_doi = normalise_doi(text=doi) if doi else None
    if url and arxiv is None:
        arxiv = canonical_arxiv_id(text=url) if "arxiv" in url.lower() else None
    if url and norm_doi is None and "doi" in url.lower():
        norm_doi = normalise_doi(text=url)
    if arxiv is None and norm_doi and norm_doi.startswith(_ARXIV_DOI_PREFIX):
        arxiv = canonical_arxiv_id(text=norm_doi.removeprefix(_ARXIV_DOI_PREFIX))
    final_url = _web_url(url=url)
    if final_url is None and arxiv:
        final_url = arxiv_abs_url(arxiv_id=arxiv)
    elif final_url is None and norm_doi:
        final_url = doi_url(doi=norm_doi)
    return final_url, arxiv, norm_doi


def _meaningful(*, text: str) -> str:
    """`text`, or "" when it has no letter or digit (a stray "$$", "…" or "--")."""
    return text if any(c.isalnum() for c in text) else ""


def build_draft(
    *,
    origin: str,
    title: str = "",
    abstract: str = "",
    authors: Iterable[str] = (),
    url: str = "",
    arxiv_id: str = "",
    doi: str = "",
) -> PaperDraft | Rejection:
    """A cleaned draft from raw fields, or a rejection when nothing names a paper."""
    clean_title = _meaningful(text=clean_text(text=title))
    clean_abstract = _meaningful(text=clean_text(text=abstract))
    url = "".join(url.split())
    final_url, arxiv, norm_doi = _id_fields(url=url, arxiv_id=arxiv_id.strip(), doi=doi.strip())
    derived = not clean_title
    if derived and clean_abstract:
        clean_title = derive_title(abstract=clean_abstract)
    elif derived and arxiv:
        clean_title = f"arXiv:{arxiv}"
    elif derived and norm_doi:
        clean_title = f"doi:{norm_doi}"
    elif derived and final_url:
        clean_title = final_url
    if not _meaningful(text=clean_title):
        return Rejection(origin=origin, reason="no title or abstract")
    return PaperDraft(
        title=clip_title(title=clean_title, limit=MAX_TITLE),
        abstract=clean_abstract,
        authors=clean_authors(authors=authors),
        url=final_url,
        arxiv_id=arxiv,
        doi=norm_doi,
        origin=origin,
        title_derived=derived,
    )


def collect(*, results: Iterable[PaperDraft | Rejection]) -> Parsed:
    """Drafts and rejections separated, each in input order."""
    drafts: list[PaperDraft] = []
    rejections: list[Rejection] = []
    for result in results:
        if isinstance(result, PaperDraft):
            drafts.append(result)
        else:
            rejections.append(result)
    return drafts, rejections
