""" "Did you mean": each word of a search the archive never wrote, replaced by the nearest word
it did write (Damerau-Levenshtein, adjacent swaps counted as one edit; the more frequent word
first when two are as near). Pure: the candidates come from the store (ports.SearchStore
.words_near), the decision is made here."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from bot.search_query import SearchQuery

SHORTEST = 4  # below this, one edit away is most of the dictionary ("gan": can, fan, man ...)
SHORT = 5  # words up to this long may be one edit off; longer ones two


@dataclass(frozen=True, slots=True)
class Respelled:
    """A query with its unknown words corrected, and which words changed (typed, corrected)."""

    text: str
    changes: tuple[tuple[str, str], ...]


def folded(*, word: str) -> str:
    """The word as the vocabulary holds it: lower-cased, accents folded (FTS5's unicode61
    with remove_diacritics does the same)."""
    decomposed = unicodedata.normalize("NFKD", word.casefold())
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def edits_allowed(*, word: str) -> int:
    """How many edits a correction of `word` may take: 0 for a word too short to guess."""
    if len(word) < SHORTEST:
        return 0
    return 1 if len(word) <= SHORT else 2


def distance(*, a: str, b: str, limit: int) -> int:
    """The optimal-string-alignment distance between a and b (insert, delete, replace, swap
    two neighbours), or limit + 1 once it is known to be more than `limit`."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    before: list[int] = []
    previous = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        current = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                current[j] = min(current[j], before[j - 2] + 1)
        if min(current) > limit:
            return limit + 1
        before, previous = previous, current
    return min(previous[-1], limit + 1)


def correctable(*, query: SearchQuery) -> tuple[str, ...]:
    """The query's bare words that could be corrected: letters only, long enough, folded."""
    words = (folded(word=term) for term in query.terms)
    return tuple(dict.fromkeys(w for w in words if w.isalpha() and edits_allowed(word=w)))


def nearest(*, word: str, vocabulary: Sequence[tuple[str, int]]) -> str | None:
    """The vocabulary's word nearest `word` within its allowed edits (most papers first, then
    alphabetical), or None: also when `word` is itself in the vocabulary."""
    limit = edits_allowed(word=word)
    best: tuple[int, int, str] | None = None
    for candidate, papers in vocabulary:
        if candidate == word:
            return None
        if not candidate.isalpha():
            continue
        far = distance(a=word, b=candidate, limit=limit)
        if far <= limit and (best is None or (far, -papers, candidate) < best):
            best = (far, -papers, candidate)
    return best[2] if best else None


def respell(
    *, text: str, query: SearchQuery, vocabulary: Sequence[tuple[str, int]]
) -> Respelled | None:
    """The text with each unknown bare word replaced by its nearest known word, or None when
    no word changes. Only bare words are touched: a phrase, -word or key:value stays as typed."""
    changes: list[tuple[str, str]] = []
    respelled = text
    for term in query.terms:
        word = folded(word=term)
        if not (word.isalpha() and edits_allowed(word=word)):
            continue
        better = nearest(word=word, vocabulary=vocabulary)
        if better is None:
            continue
        # The word where it stands alone: not after a key's colon or a minus, not in a longer
        # word; case and accents as typed.
        pattern = re.compile(rf"(?<![\w:\-\"]){re.escape(term)}(?![\w\"])", re.IGNORECASE)
        replaced, count = pattern.subn(better.replace("\\", "\\\\"), respelled)
        if count:
            respelled = replaced
            changes.append((term, better))
    return Respelled(text=respelled, changes=tuple(changes)) if changes else None
