"""One workspace's vectors in memory and how a query is scored against them: every vector,
or past COARSE_FROM papers a cheaper projection's shortlist first."""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from bot.domain.semantic import Neighbour

if TYPE_CHECKING:
    import numpy.typing as npt

# Past this many papers, a first pass scores a 64-dimension projection (a sixth of the
# memory traffic) and only the shortlist is scored in full: at 100k papers hybrid search
# went from 2.2x to 1.5x bm25 alone (bench/search.py --hybrid).
COARSE_FROM = 5_000
COARSE_DIMENSIONS = 64
SHORTLIST = 1000
SAMPLE = 5000  # vectors the projection is learnt from


@dataclass(frozen=True, slots=True)
class Vectors:
    """One workspace's vectors: paper ids, their rows, the store's (count, largest id) they
    reflect, the newest id of the model looked at, and when they were last counted; past
    COARSE_FROM papers, a projection of them for a first, cheaper pass."""

    version: tuple[int, int]
    seen: int
    counted: float
    ids: npt.NDArray[np.int64]
    matrix: npt.NDArray[np.float32]
    rows: dict[int, int]
    projection: npt.NDArray[np.float32] | None = None
    coarse: npt.NDArray[np.float32] | None = None

    @classmethod
    def of(
        cls, *, version: tuple[int, int], ids: list[int], blobs: list[bytes], coarse_from: int
    ) -> Vectors:
        """Build from the store's rows (vectors as float32 bytes)."""
        flat = np.frombuffer(b"".join(blobs), dtype=np.float32)
        matrix = flat.reshape(len(ids), -1) if ids else np.zeros((0, 1), dtype=np.float32)
        rows = {paper_id: row for row, paper_id in enumerate(ids)}
        projection = projection_of(matrix=matrix) if len(ids) >= coarse_from else None
        coarse = None if projection is None else np.ascontiguousarray(matrix @ projection)
        ids_array = np.asarray(ids, dtype=np.int64)
        return cls(
            version, version[1], time.monotonic(), ids_array, matrix, rows, projection, coarse
        )

    def extended(self, *, rows: list[tuple[int, int, bytes]], seen: int) -> Vectors:
        """These vectors and the store's newer rows (none of whose papers is here already)."""
        if not rows:
            return dataclasses.replace(self, seen=seen)
        added = np.frombuffer(b"".join(blob for _, _, blob in rows), dtype=np.float32)
        added = added.reshape(len(rows), -1)
        ids = np.concatenate([self.ids, [paper_id for _, paper_id, _ in rows]]).astype(np.int64)
        matrix = np.concatenate([self.matrix, added]) if len(self.ids) else added
        where = {paper_id: len(self.ids) + n for n, (_, paper_id, _) in enumerate(rows)}
        coarse = self.coarse
        if coarse is not None and self.projection is not None:
            coarse = np.concatenate([coarse, added @ self.projection])
        version = (len(ids), max(self.version[1], rows[-1][0]))
        return dataclasses.replace(
            self,
            version=version,
            seen=seen,
            ids=ids,
            matrix=matrix,
            rows=self.rows | where,
            coarse=coarse,
        )


def projection_of(*, matrix: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """The top singular directions of a seeded sample of the vectors: inner products in
    their span approximate the full ones well enough to shortlist the nearest."""
    rng = np.random.default_rng(0)  # the same archive gives the same projection
    sample = matrix[rng.choice(len(matrix), size=min(len(matrix), SAMPLE), replace=False)]
    _, _, directions = np.linalg.svd(sample, full_matrices=False)
    return np.ascontiguousarray(directions[:COARSE_DIMENSIONS].T.astype(np.float32))


def top(*, scores: npt.NDArray[np.float32], ids: npt.NDArray[np.int64], k: int) -> list[Neighbour]:
    """The k best scores, best first, as neighbours."""
    if k <= 0 or not len(scores):
        return []
    k = min(k, len(scores))
    best = np.argpartition(-scores, k - 1)[:k]
    best = best[np.lexsort((ids[best], -scores[best]))]  # ties: the older paper first
    return [Neighbour(paper_id=int(ids[i]), similarity=float(scores[i])) for i in best]


def nearest(
    *, held: Vectors, query: npt.NDArray[np.float32], k: int, shortlist: int
) -> list[Neighbour]:
    """The k vectors closest to a query: every one scored, or past COARSE_FROM the
    projection's `shortlist` best scored in full."""
    # einsum, not @: OpenBLAS would spread a matrix-vector product over both cores and slow
    # the keyword query running beside it by half (measured); one core does this in ~1 ms.
    size = max(shortlist, k)
    if held.coarse is None or held.projection is None or len(held.ids) <= size:
        return top(scores=np.einsum("ij,j->i", held.matrix, query), ids=held.ids, k=k)
    rough = np.einsum("ij,j->i", held.coarse, query @ held.projection)
    shortlist_rows = np.argpartition(-rough, size - 1)[:size]
    return top(scores=held.matrix[shortlist_rows] @ query, ids=held.ids[shortlist_rows], k=k)
