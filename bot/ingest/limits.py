"""Size caps on an imported entry. An abstract or author list far past them is a file gone
wrong (a missing quote swallowing the rest of the file, a whole paper pasted in), not a paper
to keep: the entry is rejected with a line saying which cap it passed, the rest still imports.
"""

from __future__ import annotations

from bot.domain import PaperDraft, Rejection
from bot.ingest.drafts import Parsed

# arXiv caps abstracts at 1,920 characters and journals rarely pass 5,000.
MAX_ABSTRACT = 20_000
# Large collaborations sign with thousands (ATLAS, CMS and LIGO papers run to about 3,000), and
# such a paper exported from here must import back; past these a list is a mis-split field.
MAX_AUTHORS = 5_000
MAX_AUTHOR_CHARS = 150_000


def oversize(*, draft: PaperDraft) -> str | None:
    """Why a draft is too big to import, or None when it fits."""
    if len(draft.abstract) > MAX_ABSTRACT:
        return f"abstract is {len(draft.abstract):,} characters, over the limit of {MAX_ABSTRACT:,}"
    if len(draft.authors) > MAX_AUTHORS:
        return f"{len(draft.authors):,} authors, over the limit of {MAX_AUTHORS:,}"
    chars = len("; ".join(draft.authors))
    if chars > MAX_AUTHOR_CHARS:
        return f"author list is {chars:,} characters, over the limit of {MAX_AUTHOR_CHARS:,}"
    return None


def within_limits(*, parsed: Parsed) -> Parsed:
    """The drafts that fit, and the rejections plus one for each draft that does not."""
    drafts, rejections = parsed
    kept: list[PaperDraft] = []
    refused: list[Rejection] = []
    for draft in drafts:
        why = oversize(draft=draft)
        if why is None:
            kept.append(draft)
        else:
            refused.append(Rejection(origin=draft.origin, reason=why))
    return kept, [*rejections, *refused]
