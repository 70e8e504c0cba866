"""Ranking candidates by what the group did: one function for both paths.

Without the semantic extra, a keyword and co-occurrence score: each candidate's terms (words
and adjacent word pairs, bot/sources/terms.py, weighted tf-idf over everything this call
sees) against the terms of the papers the group liked, weighted by how much it liked them
(the taste picker's `liking`: votes, comments and session ratings) and by the candidates it
promoted, minus its likeness to what the group voted down and hid; plus a bonus for an author
of papers the group read and liked. With the extra, the caller's scorer (the group's taste
model) says how close each candidate is to what the group liked, and the keyword score only
adds a quarter of its weight; candidates the scorer cannot place keep the keyword score.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import groupby
from operator import itemgetter, mul
from typing import Literal

from bot.domain import VoteCount
from bot.domain.ratings import NOT_RATED, RatingCount
from bot.domain.votes import liking_of
from bot.sources.candidates import Candidate, candidate_keys
from bot.sources.keywords import FilterMatch
from bot.sources.rank_authors import AuthorIndex
from bot.sources.terms import paper_terms

ReasonKind = Literal["close", "author", "keyword", "new"]

PROMOTE_WEIGHT = 1.0  # a promoted candidate counts as much as a paper read with one 👍
HIDE_WEIGHT = 1.0  # a hidden one as much as a paper read with one 👎
MIN_KEYWORD = 0.05  # a likeness (cosine) under this names no keyword: a stray shared word
KEYWORD_SHARE = 0.25  # the keyword score's weight beside the scorer's, both standardised
PLACES = 9  # scores are compared to this many decimals, so summing order never breaks a tie


@dataclass(frozen=True, slots=True)
class Reason:
    """Why a candidate ranks where it does, as values (bot/wording words them).

    close: `value` is the title of the paper read it is closest to, which the group voted
    up; author: `value` the author's name as the candidate spells it, `count` how many papers
    by them the group read; keyword: `value` the word or word pair; new: nothing better known.
    """

    kind: ReasonKind
    value: str | None = None
    count: int = 0


NEW = Reason(kind="new")


@dataclass(frozen=True, slots=True)
class GroupRead:
    """A paper the group read: its text, its votes and how many comments its thread drew, and
    how members rated the sessions that read it (a session's paper may never have been
    posted: then it has no votes or comments)."""

    title: str
    abstract: str = ""
    authors: tuple[str, ...] = ()
    votes: VoteCount = field(default_factory=VoteCount)
    comments: int = 0
    rated: RatingCount = NOT_RATED

    @property
    def liking(self) -> float:
        """The taste picker's measure of how much the group liked it."""
        return liking_of(votes=self.votes, comments=self.comments, rated=self.rated)


@dataclass(frozen=True, slots=True)
class GroupHistory:
    """What the group did: the papers it read, the candidates it promoted and hid."""

    read: tuple[GroupRead, ...] = ()
    promoted: tuple[Candidate, ...] = ()
    hidden: tuple[Candidate, ...] = ()


@dataclass(frozen=True, slots=True)
class Closeness:
    """The semantic extra's word on a candidate: predicted interest (any scale: the ranking
    standardises it) and the title of the upvoted paper read it is closest to, if any."""

    score: float
    title: str | None = None


# Given the candidates, the closeness of those the extra can place (others left out).
Scorer = Callable[[Sequence[Candidate]], Mapping[Candidate, Closeness]]


@dataclass(frozen=True, slots=True)
class RankedCandidate:
    """A candidate, its score (comparable only within one ranking) and why."""

    candidate: Candidate
    score: float
    reason: Reason


@dataclass(frozen=True, slots=True)
class _Keyword:
    """One candidate's keyword score, its parts and the term that did most for it."""

    score: float
    liked: float
    author: float
    term: str | None


def _norm(*, vector: Mapping[str, float]) -> float:
    """The length of `vector`."""
    values = vector.values()
    return math.sqrt(sum(map(mul, values, values)))


def _unit(*, vector: Mapping[str, float]) -> dict[str, float]:
    """`vector` scaled to length 1 (empty stays empty)."""
    norm = _norm(vector=vector)
    return {t: v / norm for t, v in vector.items()} if norm > 0 else {}


class _Terms:
    """tf-idf vectors over every paper one ranking sees (read, promoted, hidden, candidates)."""

    def __init__(self, *, papers: Iterable[tuple[str, str]]) -> None:
        self.raw = [paper_terms(title=title, abstract=abstract) for title, abstract in papers]
        seen: Counter[str] = Counter()
        for terms in self.raw:
            seen.update(terms.keys())  # in how many papers each term occurs
        total = len(self.raw)
        self.idf = {t: math.log((1 + total) / (1 + n)) + 1.0 for t, n in seen.items()}

    def weights(self, *, index: int) -> dict[str, float]:
        """The tf-idf weights of the index-th paper given."""
        return {t: tf * self.idf[t] for t, tf in self.raw[index].items()}

    def vector(self, *, index: int) -> dict[str, float]:
        """The unit tf-idf vector of the index-th paper given."""
        return _unit(vector=self.weights(index=index))


def _profile(*, vectors: Iterable[tuple[dict[str, float], float]]) -> dict[str, float]:
    """The unit sum of vectors, each times its weight (terms in sorted order: reproducible)."""
    total: dict[str, float] = {}
    for vector, weight in vectors:
        for term in sorted(vector):
            total[term] = total.get(term, 0.0) + weight * vector[term]
    return _unit(vector=total)


def _keyword_scores(
    *, candidates: Sequence[Candidate], history: GroupHistory
) -> tuple[list[_Keyword], AuthorIndex]:
    """The keyword score of each candidate, in order, and the authors the group read."""
    read, promoted, hidden = history.read, history.promoted, history.hidden
    papers = [
        *((r.title, r.abstract) for r in read),
        *((c.title, c.abstract) for c in (*promoted, *hidden, *candidates)),
    ]
    terms = _Terms(papers=papers)
    weights = [
        *(r.liking for r in read),
        *(PROMOTE_WEIGHT for _ in promoted),
        *(-HIDE_WEIGHT for _ in hidden),
    ]
    known = [(terms.vector(index=i), w) for i, w in enumerate(weights) if w != 0]
    liked = _profile(vectors=((v, w) for v, w in known if w > 0))
    disliked = _profile(vectors=((v, -w) for v, w in known if w < 0))
    authors = AuthorIndex(papers=[(r.authors, r.liking) for r in read if r.liking >= 0])
    scores = []
    for place, candidate in enumerate(candidates, start=len(weights)):
        like, dislike, top = _likeness(
            weights=terms.weights(index=place), liked=liked, disliked=disliked
        )
        author = authors.bonus(candidate=candidate)
        scores.append(_Keyword(like - dislike + author, like, author, top))
    return scores, authors


def _likeness(
    *, weights: dict[str, float], liked: dict[str, float], disliked: dict[str, float]
) -> tuple[float, float, str | None]:
    """A paper's cosine with the liked and the disliked profile, and the term that did most
    for the first. Only the shared terms are scaled to unit length (the vector would have
    200-odd terms, the profiles share a few dozen), to the same values _unit would give."""
    norm = _norm(vector=weights)
    if not norm > 0:
        return 0, 0, None
    # In term order: sums in a fixed order, and max() keeps the first of equal terms.
    shared = sorted((t, v / norm * liked[t]) for t, v in weights.items() if t in liked)
    against = sorted((t, v / norm) for t, v in weights.items() if t in disliked)
    like = sum(map(itemgetter(1), shared))
    dislike = sum(v * disliked[t] for t, v in against)
    return like, dislike, (max(shared, key=itemgetter(1))[0] if shared else None)


def _standard(*, values: Sequence[float]) -> list[float]:
    """`values` as standard scores (0 for all when they do not vary)."""
    mean = statistics.fmean(values) if values else 0.0
    spread = statistics.pstdev(values) if len(values) > 1 else 0.0
    return [(v - mean) / spread if spread > 0 else 0.0 for v in values]


def _reason(
    *,
    candidate: Candidate,
    keyword: _Keyword,
    authors: AuthorIndex,
    close: Closeness | None,
    match: FilterMatch | None,
) -> Reason:
    """The one thing to say about a candidate: close to a liked paper, by a read author, a
    keyword of the group's (else of the watch's), or nothing better than new."""
    if close is not None and close.title:
        return Reason(kind="close", value=close.title)
    if keyword.author > 0 and keyword.author >= keyword.liked:
        found = authors.best(candidate=candidate)
        if found is not None:
            return Reason(kind="author", value=found[0], count=found[1])
    if keyword.term is not None and keyword.liked >= MIN_KEYWORD:
        return Reason(kind="keyword", value=keyword.term)
    if match is not None and match.keywords:
        return Reason(kind="keyword", value=match.keywords[0])
    return NEW


def _tie_key(*, candidate: Candidate) -> tuple[tuple[str, ...], str, str]:
    """A stable order for equal scores: the dedupe keys, then the title and source."""
    return candidate_keys(candidate=candidate), candidate.title, candidate.source


def rank(
    *,
    candidates: Sequence[Candidate],
    history: GroupHistory,
    scorer: Scorer | None = None,
    filters: Mapping[Candidate, FilterMatch] | None = None,
) -> tuple[RankedCandidate, ...]:
    """`candidates` best first for this group, each with its reason; the same answer for the
    same candidates in any order. `scorer`: the semantic extra's closeness (None without
    it); `filters`: what each candidate matched of its watch's filters, for a reason when the
    group's own history names none."""
    scores, authors = _keyword_scores(candidates=candidates, history=history)
    closeness = dict(scorer(candidates)) if scorer is not None and candidates else {}
    placed = [closeness.get(c) for c in candidates]
    keyword = (
        _standard(values=[s.score for s in scores]) if closeness else [s.score for s in scores]
    )
    semantic = iter(_standard(values=[c.score for c in placed if c is not None]))
    ranked = []
    for candidate, kw, standard, close in zip(candidates, scores, keyword, placed, strict=True):
        if close is None:
            score = standard
        else:
            close_score = next(semantic)
            score = close_score + KEYWORD_SHARE * standard
            close = close if close_score >= 0 else None  # named only when at least average
        reason = _reason(
            candidate=candidate,
            keyword=kw,
            authors=authors,
            close=close,
            match=(filters or {}).get(candidate),
        )
        ranked.append(RankedCandidate(candidate=candidate, score=score, reason=reason))
    return _best_first(ranked=ranked)


def _best_first(*, ranked: list[RankedCandidate]) -> tuple[RankedCandidate, ...]:
    """`ranked` by score to PLACES decimals, best first, equal scores in _tie_key's order. The
    tie keys are made only for candidates that tie: they hash each abstract, too dear for
    every entry of a 2,000-entry listing (the same order as sorting on both at once)."""
    scored = sorted(((-round(r.score, PLACES), r) for r in ranked), key=lambda pair: pair[0])
    ordered: list[RankedCandidate] = []
    for _, group in groupby(scored, key=lambda pair: pair[0]):
        tied = [r for _, r in group]
        if len(tied) > 1:
            tied.sort(key=lambda r: _tie_key(candidate=r.candidate))
        ordered += tied
    return tuple(ordered)
