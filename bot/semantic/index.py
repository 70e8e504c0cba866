"""ports.Semantic over the encoder: each workspace's vectors held in memory as one float32
matrix, refreshed from the store when its vectors change, and searched with numpy (sqlite-vec
cannot load in this Python's sqlite3; 100k papers x 384 floats is 154 MB)."""

from __future__ import annotations

import dataclasses
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from bot.domain import WorkspaceKey
from bot.domain.meaning import Neighbour
from bot.ports.meaning import MeaningStore

if TYPE_CHECKING:
    import numpy.typing as npt

    from bot.semantic.encoder import Encoder

QUERY_CACHE = 256  # query texts whose vectors are kept: "More results" asks the same again
# New vectors are looked for at every search (the model's largest id, one index seek); the
# full count, which notices vectors deleted or remade, costs a pass over the workspace's
# papers (~25 ms at 100k), so it is done at most this often (a stale vector only ever names
# a paper that the search then checks in the database).
RECOUNT = 30.0
# Past this many papers, a first pass scores a 64-dimension projection (a sixth of the
# memory traffic) and only the shortlist is scored in full: at 100k papers hybrid search
# went from 2.2x to 1.5x bm25 alone (bench/search.py --hybrid).
COARSE_FROM = 5_000
COARSE_DIMENSIONS = 64
SHORTLIST = 1000
SAMPLE = 5000  # vectors the projection is learnt from
RIDGE = 1.0  # the taste model's regularisation: with a handful of votes, stay near the mean


@dataclass(frozen=True, slots=True)
class _Vectors:
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
    ) -> _Vectors:
        """Build from the store's rows (vectors as float32 bytes)."""
        flat = np.frombuffer(b"".join(blobs), dtype=np.float32)
        matrix = flat.reshape(len(ids), -1) if ids else np.zeros((0, 1), dtype=np.float32)
        rows = {paper_id: row for row, paper_id in enumerate(ids)}
        projection = _projection(matrix=matrix) if len(ids) >= coarse_from else None
        coarse = None if projection is None else np.ascontiguousarray(matrix @ projection)
        ids_array = np.asarray(ids, dtype=np.int64)
        return cls(
            version, version[1], time.monotonic(), ids_array, matrix, rows, projection, coarse
        )

    def extended(self, *, rows: list[tuple[int, int, bytes]], seen: int) -> _Vectors:
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


def _projection(*, matrix: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """The top singular directions of a seeded sample of the vectors: inner products in
    their span approximate the full ones well enough to shortlist the nearest."""
    rng = np.random.default_rng(0)  # the same archive gives the same projection
    sample = matrix[rng.choice(len(matrix), size=min(len(matrix), SAMPLE), replace=False)]
    _, _, directions = np.linalg.svd(sample, full_matrices=False)
    return np.ascontiguousarray(directions[:COARSE_DIMENSIONS].T.astype(np.float32))


def _top(*, scores: npt.NDArray[np.float32], ids: npt.NDArray[np.int64], k: int) -> list[Neighbour]:
    """The k best scores, best first, as neighbours."""
    if k <= 0 or not len(scores):
        return []
    k = min(k, len(scores))
    best = np.argpartition(-scores, k - 1)[:k]
    best = best[np.lexsort((ids[best], -scores[best]))]  # ties: the older paper first
    return [Neighbour(paper_id=int(ids[i]), similarity=float(scores[i])) for i in best]


def _nearest(
    *, held: _Vectors, query: npt.NDArray[np.float32], k: int, shortlist: int
) -> list[Neighbour]:
    """The k vectors closest to a query: every one scored, or past COARSE_FROM the
    projection's `shortlist` best scored in full."""
    # einsum, not @: OpenBLAS would spread a matrix-vector product over both cores and slow
    # the keyword query running beside it by half (measured); one core does this in ~1 ms.
    size = max(shortlist, k)
    if held.coarse is None or held.projection is None or len(held.ids) <= size:
        return _top(scores=np.einsum("ij,j->i", held.matrix, query), ids=held.ids, k=k)
    rough = np.einsum("ij,j->i", held.coarse, query @ held.projection)
    shortlist_rows = np.argpartition(-rough, size - 1)[:size]
    return _top(scores=held.matrix[shortlist_rows] @ query, ids=held.ids[shortlist_rows], k=k)


class VectorIndex:
    """Every workspace's vectors of one model, in memory, for search, related papers and taste."""

    def __init__(
        self,
        *,
        model: str,
        load: Callable[[], Encoder],
        coarse_from: int = COARSE_FROM,
        shortlist: int = SHORTLIST,
        recount: float = RECOUNT,
    ) -> None:
        """Start empty: a workspace's vectors are read on its first search, and the model is
        loaded when a text is first encoded (reading vectors needs only the database)."""
        self.model = model
        self.coarse_from, self.shortlist, self.recount = coarse_from, shortlist, recount
        self._load = load
        self._encoder: Encoder | None = None
        self._loading = threading.Lock()
        self._lock = threading.Lock()
        self._sets: dict[WorkspaceKey, _Vectors] = {}
        self._queries: OrderedDict[str, npt.NDArray[np.float32]] = OrderedDict()

    @property
    def encoder(self) -> Encoder:
        """The model, loaded on first use (~0.5 s and ~100 MB: not at every start)."""
        with self._loading:
            if self._encoder is None:
                self._encoder = self._load()
                if self._encoder.model != self.model:
                    raise ValueError(f"loaded {self._encoder.model}, expected {self.model}")
            return self._encoder

    def embed(self, *, texts: Sequence[str]) -> list[bytes]:
        """One unit vector a text, as float32 bytes for the store."""
        return [row.tobytes() for row in self.encoder.encode(texts=texts)]

    def vectors(self, *, store: MeaningStore, workspace: WorkspaceKey) -> _Vectors:
        """The workspace's vectors as the store has them now: newer rows appended at once,
        a full count at most every `recount` seconds, and a full read when that differs."""
        with self._lock:
            held = self._sets.get(workspace)
        if held is not None and time.monotonic() - held.counted < self.recount:
            newest = store.newest_vector(model=self.model)
            if newest <= held.seen:
                return held
            rows = store.vectors_after(workspace=workspace, model=self.model, after=held.seen)
            if not any(paper_id in held.rows for _, paper_id, _ in rows):
                return self._keep(workspace=workspace, held=held.extended(rows=rows, seen=newest))
        version = store.vector_version(workspace=workspace, model=self.model)
        if held is not None and held.version == version:
            return self._keep(
                workspace=workspace, held=dataclasses.replace(held, counted=time.monotonic())
            )
        rows = store.vectors_after(workspace=workspace, model=self.model, after=0)
        fresh = _Vectors.of(
            version=version,
            ids=[paper_id for _, paper_id, _ in rows],
            blobs=[blob for _, _, blob in rows],
            coarse_from=self.coarse_from,
        )
        return self._keep(workspace=workspace, held=fresh)

    def _keep(self, *, workspace: WorkspaceKey, held: _Vectors) -> _Vectors:
        """Hold a workspace's vectors for the next search."""
        with self._lock:
            self._sets[workspace] = held
        return held

    def knows(self, *, store: MeaningStore, workspace: WorkspaceKey, paper_id: int) -> bool:
        """Whether a paper of the workspace has a vector of this model."""
        return paper_id in self.vectors(store=store, workspace=workspace).rows

    def _query_vector(self, *, text: str) -> npt.NDArray[np.float32]:
        """A query's vector, from the cache when it was asked lately."""
        with self._lock:
            cached = self._queries.get(text)
            if cached is not None:
                self._queries.move_to_end(text)
                return cached
        vector = self.encoder.encode_query(text=text)
        with self._lock:
            self._queries[text] = vector
            while len(self._queries) > QUERY_CACHE:
                self._queries.popitem(last=False)
        return vector

    def start_nearest(
        self, *, store: MeaningStore, workspace: WorkspaceKey, text: str, k: int
    ) -> Callable[[], list[Neighbour]]:
        """Encode the query on a thread of its own at once, read the vectors here meanwhile
        (the store is this thread's), and score them there while the caller runs the keyword
        search; the answer waits for it."""
        ready = threading.Event()
        held: list[_Vectors] = []
        answer: list[list[Neighbour]] = []
        failure: list[BaseException] = []

        def work() -> None:
            """Encode, then score once the vectors are read (numpy and onnxruntime free the
            GIL, so this overlaps the keyword query)."""
            try:
                query = self._query_vector(text=text)
                ready.wait()
                if held and len(held[0].ids):
                    answer.append(
                        _nearest(held=held[0], query=query, k=k, shortlist=self.shortlist)
                    )
            except BaseException as error:  # handed to the caller, who raises it
                failure.append(error)

        worker = threading.Thread(target=work, name="paperclub-nearest", daemon=True)
        worker.start()
        try:
            held.append(self.vectors(store=store, workspace=workspace))
        finally:
            ready.set()  # the worker never waits for vectors that failed to load

        def wait() -> list[Neighbour]:
            """The neighbours, once the worker is done."""
            worker.join()
            if failure:
                raise failure[0]
            return answer[0] if answer else []

        return wait

    def nearest_to(
        self,
        *,
        store: MeaningStore,
        workspace: WorkspaceKey,
        paper_id: int,
        among: Collection[int],
        k: int,
    ) -> list[Neighbour]:
        """The `k` papers of `among` closest to a paper (none when it has no vector yet)."""
        held = self.vectors(store=store, workspace=workspace)
        row = held.rows.get(paper_id)
        if row is None or not among:
            return []
        keep = np.isin(held.ids, np.fromiter(among, dtype=np.int64)) & (held.ids != paper_id)
        scores = held.matrix[keep] @ held.matrix[row]
        return _top(scores=scores, ids=held.ids[keep], k=k)

    def predict(
        self,
        *,
        store: MeaningStore,
        workspace: WorkspaceKey,
        liked: Mapping[int, float],
        candidates: Sequence[int],
    ) -> dict[int, float]:
        """Ridge regression from read papers' vectors to how much they were liked (the dual
        form: a few dozen papers, 384 dimensions), applied to each candidate with a vector."""
        held = self.vectors(store=store, workspace=workspace)
        known = [paper_id for paper_id in liked if paper_id in held.rows]
        wanted = [paper_id for paper_id in candidates if paper_id in held.rows]
        if not known or not wanted:
            return {}
        x = held.matrix[[held.rows[paper_id] for paper_id in known]].astype(np.float64)
        y = np.array([liked[paper_id] for paper_id in known], dtype=np.float64)
        mean = float(y.mean())
        alpha = np.linalg.solve(x @ x.T + RIDGE * np.eye(len(known)), y - mean)
        weights = x.T @ alpha
        rows = held.matrix[[held.rows[paper_id] for paper_id in wanted]].astype(np.float64)
        return {
            paper_id: mean + float(score)
            for paper_id, score in zip(wanted, rows @ weights, strict=True)
        }
