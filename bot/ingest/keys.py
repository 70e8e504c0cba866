"""Dedupe keys: what makes two drafts the same paper, whatever file they came from."""

from __future__ import annotations

import hashlib
import re
import unicodedata

from bot.domain import PaperDraft
from bot.ingest.arxiv import canonical_arxiv_id
from bot.ingest.clean import clean_text
from bot.ingest.doi import normalise_doi

# From this many words on, an abstract identifies its paper by itself. Shorter ones
# may be placeholders that many papers share ("No abstract available."), so the
# title joins them in the fingerprint.
MIN_ABSTRACT_WORDS = 12
_NON_WORD_RE = re.compile(r"[\W_]+")


def normalise_for_key(*, text: str) -> str:
    """`text` reduced to lower-case unaccented words separated by single spaces."""
    text = clean_text(text=text).replace("…", " ")
    if text.isascii():  # nothing to unaccent: the common case, and the hot path of imports
        bare = text
    else:
        decomposed = unicodedata.normalize("NFKD", text)
        bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return _NON_WORD_RE.sub(" ", bare.casefold()).strip()


def fingerprint(*, title: str, abstract: str) -> str:
    """The sha1 hex of the normalised abstract, led by the title when the abstract is short."""
    body = normalise_for_key(text=abstract)
    # Titles are the unreliable half: most reading-list titles are derived by us (and
    # derive_title may improve), and sources disagree on capitals and subtitles. A
    # real abstract alone keeps re-imports and exports meeting the same paper.
    head = "" if len(body.split()) >= MIN_ABSTRACT_WORDS else normalise_for_key(text=title)
    joined = f"{head}\n{body}"
    return hashlib.sha1(joined.encode("utf-8"), usedforsecurity=False).hexdigest()


def dedupe_keys(*, draft: PaperDraft) -> tuple[str, ...]:
    """Every key under which `draft` may already be known: arxiv:, doi: and fp: prefixed."""
    keys: list[str] = []
    arxiv_id = canonical_arxiv_id(text=draft.arxiv_id) if draft.arxiv_id else None
    if arxiv_id:
        keys.append(f"arxiv:{arxiv_id}")
    doi = normalise_doi(text=draft.doi) if draft.doi else None
    if doi:
        keys.append(f"doi:{doi}")
    keys.append(f"fp:{fingerprint(title=draft.title, abstract=draft.abstract)}")
    return tuple(keys)
