"""Names forgiven from the authors' index (migration 0017), reading only the names that could
match: the same papers, in the same order, as name_match.forgiven over every author of the
workspace, without reading every paper.

Which names could match: every typed word must take a word of the name, and one typed word of
two letters or more must take a whole word of the name (name_match.name_cost). So the name
holds, for each typed word w of two letters or more, w itself, a word within w's forgiven
edits, or w's initial (only when another such typed word may take the whole word). Words within a
few edits are found by trigrams: a word within k edits of w shares at least |grams(w)| - 3k
of w's padded trigrams, as one edit changes at most three of them (the count filter of
approximate string matching), and is then measured. Each name found is judged by name_cost.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from bot.ports.semantic import SearchRun
from bot.services.name_match import MAX_PAPERS, allowed, distance, fold, name_cost

PAD = "  "  # two spaces each side: a word's first and last letters start and end grams too
# No longer name is indexed (schema_authors.MAX_NAME), so no word of one is longer either: a
# longer typed word has no near word to look for (and 10,000 letters make no 10,000 grams).
LONGEST = 200


def grams(*, word: str) -> list[str]:
    """The distinct trigrams of `word` padded with two spaces each side (word: folded, so
    letters only)."""
    padded = f"{PAD}{word}{PAD}"
    return sorted({padded[i : i + 3] for i in range(len(padded) - 2)})


def near_words(*, run: SearchRun, word: str) -> set[str]:
    """`word` and the archive's author words of two letters or more within its forgiven edits."""
    bound = allowed(word=word)
    if not bound or len(word) > LONGEST + bound:
        return {word}
    own = grams(word=word)
    found = run.author_words(
        grams=own,
        shortest=max(2, len(word) - bound),
        longest=len(word) + bound,
        least=len(own) - 3 * bound,
    )
    return {word} | {other for other in found if distance(a=word, b=other, bound=bound) <= bound}


def named_papers(*, run: SearchRun, typed: Sequence[str]) -> list[int]:
    """Paper ids whose authors the typed (folded) words name, fewest edits first, then newest
    first, at most name_match.MAX_PAPERS: name_match.forgiven's answer."""
    whole = list(dict.fromkeys(word for word in typed if len(word) > 1))
    if not whole:  # initials alone name nobody
        return []
    # With one distinct whole word, only it can take a whole word of the name: no initials.
    initial = len(whole) > 1
    sets = [near_words(run=run, word=word) | ({word[0]} if initial else set()) for word in whole]
    seen: dict[tuple[str, str], int | None] = {}
    # Names written apart often fold alike ("Wei Wang", "WANG Wei", "Wang, Wei"): one verdict.
    verdicts: dict[tuple[str, ...], int | None] = {}
    by_cost: dict[int, list[int]] = defaultdict(list)
    # Only the workspace's names come (search_authors): a surname common elsewhere costs
    # nothing here; one common here is read and folded name by name (70,000 names on
    # SQLite: ~0.7 s, half of it fetching the rows).
    for name_id, name in run.author_names(words=sets):
        words = fold(text=name)
        if words not in verdicts:
            verdicts[words] = name_cost(typed=typed, name=words, seen=seen)
        cost = verdicts[words]
        if cost is not None:
            by_cost[cost].append(name_id)
    ranked: list[int] = []
    taken: set[int] = set()
    for cost in sorted(by_cost):
        # Papers a cheaper name took come back again: ask for as many more.
        for paper_id in run.papers_named(names=by_cost[cost], limit=MAX_PAPERS + len(ranked)):
            if paper_id not in taken:
                taken.add(paper_id)
                ranked.append(paper_id)
        if len(ranked) >= MAX_PAPERS:
            break
    return ranked[:MAX_PAPERS]
