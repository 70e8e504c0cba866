"""What a found record changes in a paper we hold: pure, field by field.

The title only when ours was made from the abstract or is cut; the abstract only when ours is
missing or cut and theirs goes further; authors, ids, URL and date only where ours are empty;
never a field a person typed (`locked`), never an id another paper already has.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date

from bot.domain import Paper, PaperDraft
from bot.enrich.match import ELLIPSES, Known

TITLE_MAX = 300  # the schema's column


@dataclass(frozen=True, slots=True)
class Change:
    """One field's value before and after."""

    field: str
    before: object
    after: object


def known_of(*, paper: Paper) -> Known:
    """What we hold of a paper, for the matcher."""
    return Known(
        title=paper.title,
        abstract=paper.abstract,
        authors=paper.authors,
        title_derived=paper.title_derived,
    )


def _cut(text: str) -> bool:
    """Missing, or ending with an ellipsis."""
    stripped = text.rstrip()
    return not stripped or stripped.endswith(ELLIPSES)


def changes(
    *,
    paper: Paper,
    found: PaperDraft,
    locked: frozenset[str],
    published: date | None,
    taken: Callable[[str, str], bool],
) -> list[Change]:
    """The changes `found` brings to `paper` (`taken(field, value)`: another paper has that
    arXiv id or DOI already)."""
    out: list[Change] = []

    def propose(name: str, before: object, after: object) -> None:
        """A change, unless a person typed the field or nothing would change."""
        if name not in locked and after and after != before:
            out.append(Change(field=name, before=before, after=after))

    if paper.title_derived or _cut(paper.title):
        propose("title", paper.title, found.title[:TITLE_MAX])
    theirs = found.abstract.strip()
    ours = paper.abstract.rstrip().removesuffix("…").removesuffix("...").strip()
    if _cut(paper.abstract) and len(theirs) > len(ours):
        propose("abstract", paper.abstract, theirs)
    if not paper.authors and found.authors:
        propose("authors", list(paper.authors), list(found.authors))
    for name, before, after in (
        ("arxiv_id", paper.arxiv_id, found.arxiv_id),
        ("doi", paper.doi, found.doi),
    ):
        if not before and after and not taken(name, after):
            propose(name, before, after)
    if not paper.url:
        propose("url", paper.url, found.url)
    if published is None and found.published is not None:
        propose("published_on", None, found.published)
    return out
