"""Reciprocal rank fusion of the keyword and the vector rankings (Cormack et al., 2009): each
list adds weight / (K + rank), so agreement between them beats a high place in either alone,
and scores of different kinds (bm25, cosine) never have to be put on one scale."""

from __future__ import annotations

from collections.abc import Sequence

from bot.domain.semantic import Fused, Neighbour, Ranked

K = 60  # the usual constant: ranks far down either list still count, a little
KEYWORD_WEIGHT = 1.0
# A keyword candidate lacking some of the words (a related paper after those with every word,
# or any of them when no paper had every word) is a weaker signal: its place counts this much.
RELATED_KEYWORD_WEIGHT = 0.0
VECTOR_WEIGHT = 1.0


def _order(*, fused: Fused) -> tuple[float, float, int]:
    """Best fused score first; ties go to the keyword score, then the older paper."""
    ranked = fused.ranked
    return (-fused.score, -(ranked.text_score + ranked.comment_score), ranked.paper_id)


def fuse(
    *,
    keyword: Sequence[Ranked],
    vectors: Sequence[Neighbour],
    related_weight: float = RELATED_KEYWORD_WEIGHT,
) -> list[Fused]:
    """Both lists as one, best first (`related_weight`: how much the place of a keyword
    candidate lacking some of the words counts, against KEYWORD_WEIGHT for one with all)."""
    near = {hit.paper_id: (rank, hit) for rank, hit in enumerate(vectors, start=1)}
    fused: list[Fused] = []
    for rank, hit in enumerate(keyword, start=1):
        score = (KEYWORD_WEIGHT if hit.every_word else related_weight) / (K + rank)
        place = near.pop(hit.paper_id, None)
        if place is None:
            fused.append(Fused(ranked=hit, score=score, keyword_rank=rank))
        else:
            score += VECTOR_WEIGHT / (K + place[0])
            fused.append(Fused(hit, score, rank, place[0], place[1].similarity))
    for rank, neighbour in near.values():  # found by meaning alone
        ranked = Ranked(paper_id=neighbour.paper_id, text_score=0.0)
        score = VECTOR_WEIGHT / (K + rank)
        fused.append(Fused(ranked, score, None, rank, neighbour.similarity))
    return sorted(fused, key=lambda item: _order(fused=item))
