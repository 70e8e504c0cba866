"""What the fake knows: one Record a paper, and the word splitting every match uses."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

# Lucene-like tokens: runs of letters and digits; punctuation, hyphens and "_" separate words.
_WORD_RE = re.compile(r"[^\W_]+")
_VERSION_RE = re.compile(r"v\d+$")


@dataclass(frozen=True)
class Record:
    """One paper as both services know it; no arxiv_id: not on arXiv, no doi: not in Crossref."""

    title: str
    authors: tuple[str, ...]
    abstract: str
    arxiv_id: str | None = None
    doi: str | None = None
    published: str = "2024-05-17"
    url: str | None = None
    # arXiv categories, primary first (the API's cat: field, primary_category); () reads cs.DC.
    categories: tuple[str, ...] = ()

    @property
    def base_id(self) -> str | None:
        """The arXiv id without its version suffix."""
        return _VERSION_RE.sub("", self.arxiv_id) if self.arxiv_id else None

    @property
    def versioned_id(self) -> str | None:
        """The arXiv id as entry ids carry it: with a version, v1 unless the record names one."""
        if not self.arxiv_id:
            return None
        return self.arxiv_id if _VERSION_RE.search(self.arxiv_id) else f"{self.arxiv_id}v1"

    @property
    def date_parts(self) -> list[int]:
        """The publication date as Crossref's [year, month, day]."""
        return [int(part) for part in self.published.split("-")]


def words(*, text: str) -> list[str]:
    """Case-folded words of `text`, as both fake search engines compare them."""
    return _WORD_RE.findall(unicodedata.normalize("NFKC", text).casefold())


def contains_phrase(*, haystack: list[str], phrase: list[str]) -> bool:
    """Whether the words of `phrase` occur, contiguous and in order, in `haystack`."""
    if not phrase:
        return False
    size = len(phrase)
    return any(haystack[i : i + size] == phrase for i in range(len(haystack) - size + 1))
