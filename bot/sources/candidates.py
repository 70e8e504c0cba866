"""A candidate paper as a source announced it, and the keys that say it is already known."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from typing import Literal, get_args

from bot.ingest.arxiv import arxiv_abs_url, canonical_arxiv_id
from bot.ingest.clean import clean_text
from bot.ingest.doi import doi_url, normalise_doi
from bot.ingest.drafts import MAX_TITLE, clean_authors
from bot.ingest.keys import fingerprint, normalise_for_key
from bot.ingest.titles import clip_title

AnnounceKind = Literal["new", "cross", "replace", "replace-cross"]
ANNOUNCE_KINDS: tuple[AnnounceKind, ...] = get_args(AnnounceKind)
# The DOI prefix DataCite registers every arXiv preprint under: 10.48550/arXiv.<id>.
ARXIV_DOI_PREFIX = "10.48550/arxiv."

# Caps per field, in characters (authors and categories in entries). A feed is the caller's
# size-capped bytes; these keep one entry from filling a tray. arXiv caps abstracts at 1,920
# characters; a journal abstract past 5,000 is a whole paper pasted in.
MAX_ABSTRACT = 5_000
MAX_AUTHORS = 500
MAX_AUTHOR_NAME = 200
MAX_CATEGORIES = 20
MAX_CATEGORY = 40
MAX_URL = 2_000


@dataclass(frozen=True, slots=True)
class Candidate:
    """One paper a source announced: cleaned plain text, canonical ids, and where it came from.

    `arxiv_id` is version-less and lower-case, `version` the announced version (None when
    the source does not say); `doi` is lower-case; `announced` is the day the source
    announced or published it; `announce` is arXiv's announce type, None for other sources.
    """

    title: str
    source: str
    authors: tuple[str, ...] = ()
    abstract: str = ""
    arxiv_id: str | None = None
    version: int | None = None
    doi: str | None = None
    url: str | None = None
    announced: date | None = None
    categories: tuple[str, ...] = ()
    announce: AnnounceKind | None = None

    @property
    def is_replacement(self) -> bool:
        """Whether arXiv announced a new version of a paper it listed before."""
        return self.announce in ("replace", "replace-cross")


def _capped(*, text: str, limit: int) -> str:
    """`text` cut to `limit` characters, ending in "…" when cut."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _url(*, url: str, arxiv_id: str | None, doi: str | None) -> str | None:
    """An http(s) address for the candidate: the arXiv page, the source's link, or the DOI's."""
    if arxiv_id:
        return arxiv_abs_url(arxiv_id=arxiv_id)
    link = "".join(url.split())
    if link.lower().startswith(("https://", "http://")) and len(link) <= MAX_URL:
        return link
    return doi_url(doi=doi) if doi else None


def make_candidate(
    *,
    source: str,
    title: str,
    abstract: str = "",
    authors: Iterable[str] = (),
    arxiv_id: str = "",
    version: int | None = None,
    doi: str = "",
    url: str = "",
    announced: date | None = None,
    categories: Iterable[str] = (),
    announce: str | None = None,
) -> Candidate | None:
    """A candidate from raw plain-text fields, each cleaned and capped; None when nothing in it
    reads as a title. An arXiv DataCite DOI (10.48550/arXiv.<id>) gives the arXiv id too."""
    norm_doi = normalise_doi(text=doi) if doi else None
    arxiv = canonical_arxiv_id(text=arxiv_id) if arxiv_id else None
    if arxiv is None and norm_doi and norm_doi.startswith(ARXIV_DOI_PREFIX):
        arxiv = canonical_arxiv_id(text=norm_doi.removeprefix(ARXIV_DOI_PREFIX))
    clean_title = clip_title(title=clean_text(text=title[: MAX_TITLE * 4]), limit=MAX_TITLE)
    if not any(c.isalnum() for c in clean_title):
        return None
    names = [name[:MAX_AUTHOR_NAME] for _, name in zip(range(MAX_AUTHORS), authors, strict=False)]
    kinds: dict[str, AnnounceKind] = {kind: kind for kind in ANNOUNCE_KINDS}
    return Candidate(
        title=clean_title,
        source=source,
        authors=clean_authors(authors=names),
        abstract=_capped(text=clean_text(text=abstract[: MAX_ABSTRACT * 4]), limit=MAX_ABSTRACT),
        arxiv_id=arxiv,
        version=version if version is not None and 0 < version < 1_000 else None,
        doi=norm_doi,
        url=_url(url=url, arxiv_id=arxiv, doi=norm_doi),
        announced=announced,
        categories=tuple(
            dict.fromkeys(
                c.strip()[:MAX_CATEGORY] for c in list(categories)[:MAX_CATEGORIES] if c.strip()
            )
        ),
        announce=kinds.get((announce or "").strip().lower()),
    )


def title_key(*, title: str) -> str:
    """The title fingerprint: the title as the archive compares titles (bot/ingest's
    normalise_for_key: case, accents and punctuation aside), "" for a title of no words."""
    return normalise_for_key(text=title)


def candidate_keys(*, candidate: Candidate) -> tuple[str, ...]:
    """Every key under which the candidate may already be known, most certain first.

    arxiv:<id> (version-less) and doi:<doi>, with an arXiv preprint's DataCite DOI as a
    doi: key too; fp:<sha1>, the archive's own fingerprint (Store.known_keys holds these);
    title:<normalised title>, which meets the same paper announced by two sources whose
    abstracts differ (a preprint and its journal version)."""
    keys: list[str] = []
    if candidate.arxiv_id:
        keys.append(f"arxiv:{candidate.arxiv_id}")
    if candidate.doi:
        keys.append(f"doi:{candidate.doi}")
    if candidate.arxiv_id:
        datacite = f"doi:{ARXIV_DOI_PREFIX}{candidate.arxiv_id}"
        if datacite not in keys:
            keys.append(datacite)
    keys.append(f"fp:{fingerprint(title=candidate.title, abstract=candidate.abstract)}")
    title = title_key(title=candidate.title)
    if title:
        keys.append(f"title:{title}")
    return tuple(keys)
