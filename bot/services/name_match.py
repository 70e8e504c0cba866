"""Whether typed words name one of the archive's authors, forgiving a typo, accents and
initials: "halvorson" for "Halverson", "Sebastian Ortega" for "Sebastián Ortega", "J. Smith"
for "John Smith". Pure. `forgiven` says which papers a scan of every (paper id, author) pair
finds: it is the rule; the search reads the same answer from the authors' index (name_lookup),
and the tests and bench/names.py hold the two to each other.

Both sides are folded (NFKD, combining marks dropped, casefolded; anything else than a letter
splits words). Every typed word must match a different word of the name, in any order (a list
may write "Ortega, Sebastián"): the same word, an initial of it (either side may be the
initial), or within a few edits when the typed word is long enough for a typo to be told from
another name. At least one typed word must be more than an initial.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence

MAX_WORDS = 4  # a person's name; more words are a sentence, not a name
MAX_PAPERS = 200  # the forgiven papers kept, best first
# Edits forgiven by a typed word's length: none under 5 letters ("Li" is not "Lu", "Wang" is
# not "Wong"), one from 5 ("Smyth", "halvorson"), two from 9.
ONE_EDIT, TWO_EDITS = 5, 9
_LETTERS = re.compile(r"[^\W\d_]+")  # runs of letters in any script


def fold(*, text: str) -> tuple[str, ...]:
    """The words of `text` without accents or case; digits and marks split words too."""
    if not text.isascii():  # most names are: they skip decomposing, the costliest step
        decomposed = unicodedata.normalize("NFKD", text)
        text = "".join(char for char in decomposed if not unicodedata.combining(char))
    return tuple(_LETTERS.findall(text.casefold()))


def allowed(*, word: str) -> int:
    """How many edits a typed word of this length may carry."""
    return 2 if len(word) >= TWO_EDITS else 1 if len(word) >= ONE_EDIT else 0


def distance(*, a: str, b: str, bound: int) -> int:
    """Levenshtein distance of a and b, or bound + 1 as soon as it must exceed `bound`."""
    if abs(len(a) - len(b)) > bound:
        return bound + 1
    previous = list(range(len(b) + 1))
    for i, char_a in enumerate(a, start=1):
        current = [i]
        for j, char_b in enumerate(b, start=1):
            cost = 0 if char_a == char_b else 1
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost))
        if min(current) > bound:
            return bound + 1
        previous = current
    return previous[-1]


def _word_cost(*, typed: str, word: str) -> int | None:
    """0 for the same word or an initial of it, the edits for a forgiven typo, else None."""
    if typed == word:
        return 0
    if len(typed) == 1 or len(word) == 1:
        return 0 if typed[0] == word[0] else None
    bound = allowed(word=typed)
    edits = distance(a=typed, b=word, bound=bound) if bound else 1
    return edits if edits <= bound else None


def name_cost(
    *, typed: Sequence[str], name: Sequence[str], seen: dict[tuple[str, str], int | None]
) -> int | None:
    """The edits by which the typed words name `name` (both folded), or None when they don't;
    `seen` keeps each (typed word, name word) verdict, as first names recur across authors."""
    if not typed or len(typed) > len(name):
        return None
    free = list(name)
    total, whole = 0, False
    # Longest first: a surname claims its word before an initial could take it.
    for word in sorted(typed, key=len, reverse=True):
        costs = []
        for index, part in enumerate(free):
            if (word, part) not in seen:
                seen[word, part] = _word_cost(typed=word, word=part)
            cost = seen[word, part]
            if cost is not None:
                costs.append((cost, index))
        if not costs:
            return None
        cost, index = min(costs)
        whole = whole or (len(word) > 1 and len(free[index]) > 1)
        total += cost
        del free[index]
    return total if whole else None  # initials meeting initials name nobody


def person_words(*, text: str) -> tuple[str, ...]:
    """The folded words of `text` when they could be a person's name (1 to MAX_WORDS words,
    no digits), else ()."""
    words = fold(text=text)
    if len(words) > MAX_WORDS or any(char.isdigit() for char in text):
        return ()
    return words


def forgiven(*, typed: Sequence[str], authors: Iterable[tuple[int, str]]) -> list[int]:
    """Paper ids whose authors the typed words name, fewest edits first, then newest papers
    first (at most MAX_PAPERS)."""
    best: dict[int, int] = {}
    verdicts: dict[str, int | None] = {}  # each distinct name is judged once
    seen: dict[tuple[str, str], int | None] = {}
    for paper_id, author in authors:
        if author not in verdicts:
            verdicts[author] = name_cost(typed=typed, name=fold(text=author), seen=seen)
        cost = verdicts[author]
        if cost is not None and cost < best.get(paper_id, cost + 1):
            best[paper_id] = cost
    ranked = sorted(best, key=lambda paper_id: (best[paper_id], -paper_id))
    return ranked[:MAX_PAPERS]
