"""The authors a group read, for the ranking: who wrote how many of the papers read.

People are compared as the watches' author filters compare them (keywords.person_key: family
name, and first initial when both sides give one), so "P. Pegon" and "Paul Pegon" are one
author. Two people sharing a family name and initial are one author here too: the limit of
comparing names without identifiers.
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.sources.candidates import Candidate
from bot.sources.keywords import person_key

PER_READ = 0.2  # the bonus for each paper read by an author of the candidate and liked...
LIKED = 2.0  # ...in full from this liking on (two net 👍), in part below, none at 0 or less
MAX_BONUS = 0.6  # up to three papers: about as much as a close match of words
MAX_NAMES = 50  # authors of one candidate looked up: a 500-author collaboration is no signal


class AuthorIndex:
    """Papers read by family name: (first initial or "", paper's place) for each author."""

    def __init__(self, *, papers: Iterable[tuple[tuple[str, ...], float]]) -> None:
        """`papers`: the authors of each paper read and how much the group liked it."""
        self._by_family: dict[str, list[tuple[str, int]]] = {}
        self._liking: list[float] = []
        # Each name's papers, once looked up: a listing names the same people many times.
        self._places: dict[str, frozenset[int]] = {}
        for place, (names, liking) in enumerate(papers):
            self._liking.append(liking)
            for name in names:
                key = person_key(name=name)
                if key is not None:
                    self._by_family.setdefault(key[0], []).append((key[1], place))

    def _read_by(self, *, name: str) -> frozenset[int]:
        """The places of the papers read that `name` wrote."""
        found = self._places.get(name)
        if found is None:
            found = self._places[name] = self._look_up(name=name)
        return found

    def _look_up(self, *, name: str) -> frozenset[int]:
        """The places of the papers read that `name` wrote, from the index."""
        key = person_key(name=name)
        if key is None:
            return frozenset()
        family, initial = key
        return frozenset(
            place
            for known, place in self._by_family.get(family, ())
            if not initial or not known or known == initial
        )

    def bonus(self, *, candidate: Candidate) -> float:
        """PER_READ for each distinct liked paper read by any of the candidate's authors (in
        proportion below LIKED), capped at MAX_BONUS."""
        read: set[int] = set()
        for name in candidate.authors[:MAX_NAMES]:
            read |= self._read_by(name=name)
        credit = sum(min(1.0, max(0.0, self._liking[place]) / LIKED) for place in sorted(read))
        return min(MAX_BONUS, PER_READ * credit)

    def best(self, *, candidate: Candidate) -> tuple[str, int] | None:
        """The candidate's author the group read most (the first listed among equals) and how
        many of their papers it read (not voted down); None when it read none."""
        found = [(name, len(self._read_by(name=name))) for name in candidate.authors[:MAX_NAMES]]
        best = max(found, key=lambda item: item[1], default=None)
        return best if best is not None and best[1] > 0 else None
