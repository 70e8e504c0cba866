"""One reference a user typed (an arXiv id or URL, a DOI, a link, a title) as a draft."""

from __future__ import annotations

import re

from bot.domain import PaperDraft
from bot.ingest.arxiv import canonical_arxiv_id
from bot.ingest.doi import normalise_doi
from bot.ingest.drafts import build_draft

_URL_RE = re.compile(r"(?:https?://|www\.)\S+", re.IGNORECASE)
_SENTENCE_RE = re.compile(r"[.!?]\s+[A-Z]")
# Words left behind when the id they introduced has been taken out of the text.
_LEFTOVER_RE = re.compile(r"(?:\s*(?:arxiv|doi)\s*:|\s*[-–—|:,;(\[])+\s*$", re.IGNORECASE)
_ID_WORD_RE = re.compile(r"(?:\s*(?:arxiv|doi)\s*:)+\s*$", re.IGNORECASE)
# Longer than this, or more than one sentence, and the text is an abstract, not a title.
_LONGEST_TITLE = 200


def draft_from_reference(*, text: str, origin: str) -> PaperDraft | None:
    """A draft for one typed reference, or None when the text names no paper."""
    text = text.strip()
    arxiv_id = doi = url = ""
    kept: list[str] = []
    tokens = text.split()
    for token in tokens:
        bare = token.strip(".,;()[]<>\"'")
        if not arxiv_id and (found := canonical_arxiv_id(text=token)):
            arxiv_id = found
        elif not doi and (found := normalise_doi(text=token)):
            doi = found
        elif not url and _URL_RE.fullmatch(bare):
            url = bare
        else:
            kept.append(token)
    # Only an id taken from the end leaves a separator behind ("Title: 2401.01234"); a title
    # that merely ends in one (":fire:") is kept as typed, bar a bare "arXiv:" or "doi:".
    took_last = bool(tokens) and (not kept or kept[-1] is not tokens[-1])
    rest = (_LEFTOVER_RE if took_last else _ID_WORD_RE).sub("", " ".join(kept)).strip()
    is_abstract = len(rest) > _LONGEST_TITLE or _SENTENCE_RE.search(rest) is not None
    result = build_draft(
        origin=origin,
        title="" if is_abstract else rest,
        abstract=rest if is_abstract else "",
        url=url,
        arxiv_id=arxiv_id,
        doi=doi,
    )
    return result if isinstance(result, PaperDraft) else None
