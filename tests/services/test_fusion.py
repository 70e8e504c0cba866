"""Reciprocal rank fusion: agreement between the keyword and vector rankings beats a high place
in either alone; ties go to the keyword score, then the older paper."""

from __future__ import annotations

import pytest

from bot.domain.semantic import Neighbour, Ranked
from bot.services.fusion import RELATED_KEYWORD_WEIGHT, K, fuse


def _ids(
    *, keyword: list[int], vectors: list[int], related: int = 0, weight: float = 1.0
) -> list[int]:
    """The fused order of two rankings given as paper ids, best first; the last `related`
    keyword candidates lack some of the words, and their places count `weight`."""
    every = len(keyword) - related
    fused = fuse(
        keyword=[
            Ranked(paper_id=p, text_score=10.0 - n, every_word=n < every)
            for n, p in enumerate(keyword)
        ],
        vectors=[Neighbour(paper_id=p, similarity=0.9 - n / 10) for n, p in enumerate(vectors)],
        related_weight=weight,
    )
    return [item.ranked.paper_id for item in fused]


def test_empty_lists_fuse_to_nothing() -> None:
    assert fuse(keyword=[], vectors=[]) == []


def test_one_list_alone_keeps_its_order() -> None:
    assert _ids(keyword=[3, 1, 2], vectors=[]) == [3, 1, 2]
    assert _ids(keyword=[], vectors=[3, 1, 2]) == [3, 1, 2]


def test_found_by_both_beats_first_in_one() -> None:
    assert _ids(keyword=[1, 2], vectors=[3, 2]) == [2, 1, 3]


def test_scores_and_places_are_kept() -> None:
    [both, meaning] = fuse(
        keyword=[Ranked(paper_id=7, text_score=4.0)],
        vectors=[Neighbour(paper_id=9, similarity=0.8), Neighbour(paper_id=7, similarity=0.5)],
    )
    assert both.ranked.paper_id == 7 and (both.keyword_rank, both.vector_rank) == (1, 2)
    assert both.score == pytest.approx(1 / (K + 1) + 1 / (K + 2))
    assert both.similarity == 0.5
    assert meaning.ranked == Ranked(paper_id=9, text_score=0.0) and meaning.keyword_rank is None
    assert meaning.score == pytest.approx(1 / (K + 1))


def test_ties_go_to_the_keyword_score_then_the_older_paper() -> None:
    # 5 first by keywords, 6 first by meaning: equal fused scores.
    fused = fuse(
        keyword=[Ranked(paper_id=5, text_score=2.0)],
        vectors=[Neighbour(paper_id=6, similarity=0.9)],
    )
    assert [f.ranked.paper_id for f in fused] == [5, 6]
    # No keyword score either (a match in no words' weight): the older paper first.
    level = fuse(
        keyword=[Ranked(paper_id=9, text_score=0.0)],
        vectors=[Neighbour(paper_id=4, similarity=0.9)],
    )
    assert [f.ranked.paper_id for f in level] == [4, 9]


def test_a_related_candidates_place_counts_its_weight() -> None:
    [first, second] = fuse(
        keyword=[Ranked(paper_id=1, text_score=2.0), Ranked(2, 1.0, every_word=False)],
        vectors=[Neighbour(paper_id=2, similarity=0.9)],
        related_weight=0.5,
    )
    assert (first.ranked.paper_id, second.ranked.paper_id) == (2, 1)
    assert first.score == pytest.approx(0.5 / (K + 2) + 1 / (K + 1))
    assert second.score == pytest.approx(1 / (K + 1))


def test_related_keyword_candidates_only_add_recall() -> None:
    # Tuned on bench/relevance.py (0, 0.1, 0.25, 0.5 and 1 tried): 0 keeps hybrid MRR highest.
    assert RELATED_KEYWORD_WEIGHT == 0.0
    # 3 and 4 lack a word: their keyword places count nothing, 4's place by meaning alone.
    order = _ids(keyword=[1, 2, 3, 4], vectors=[2, 4], related=2, weight=RELATED_KEYWORD_WEIGHT)
    assert order == [2, 1, 4, 3]
    # Without a candidate with every word: meaning orders, keyword-only ones follow.
    order = _ids(keyword=[1, 2, 3], vectors=[3], related=3, weight=RELATED_KEYWORD_WEIGHT)
    assert order[0] == 3 and sorted(order) == [1, 2, 3]
