"""ports.Semantic over the encoder: each workspace's vectors held in memory as one float32
matrix, refreshed from the store when its vectors change, and searched with numpy (sqlite-vec
cannot load in this Python's sqlite3; 100k papers x 384 floats is 154 MB)."""

from __future__ import annotations

import dataclasses
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from bot.domain import WorkspaceKey
from bot.domain.semantic import Neighbour
from bot.ports.semantic import SemanticStore
from bot.semantic.vectors import COARSE_FROM, SHORTLIST, Vectors, nearest, top

if TYPE_CHECKING:
    import numpy.typing as npt

    from bot.semantic.encoder import Encoder

QUERY_CACHE = 256  # query texts whose vectors are kept: "More results" asks the same again
# New vectors are looked for at every search (the model's largest id, one index seek); the
# full count, which notices vectors deleted or remade, costs a pass over the workspace's
# papers (~25 ms at 100k), so it is done at most this often (a stale vector only ever names
# a paper that the search then checks in the database).
RECOUNT = 30.0
RIDGE = 1.0  # the taste model's regularisation: with a handful of votes, stay near the mean


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
        self._sets: dict[WorkspaceKey, Vectors] = {}
        self._queries: OrderedDict[str, npt.NDArray[np.float32]] = OrderedDict()

    @property
    def loaded(self) -> bool:
        """Whether the model is loaded."""
        return self._encoder is not None

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

    def vectors(self, *, store: SemanticStore, workspace: WorkspaceKey) -> Vectors:
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
        fresh = Vectors.of(
            version=version,
            ids=[paper_id for _, paper_id, _ in rows],
            blobs=[blob for _, _, blob in rows],
            coarse_from=self.coarse_from,
        )
        return self._keep(workspace=workspace, held=fresh)

    def _keep(self, *, workspace: WorkspaceKey, held: Vectors) -> Vectors:
        """Hold a workspace's vectors for the next search."""
        with self._lock:
            self._sets[workspace] = held
        return held

    def knows(self, *, store: SemanticStore, workspace: WorkspaceKey, paper_id: int) -> bool:
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
        self, *, store: SemanticStore, workspace: WorkspaceKey, text: str, k: int
    ) -> Callable[[], list[Neighbour]]:
        """Encode the query on a thread of its own at once, read the vectors here meanwhile
        (the store is this thread's), and score them there while the caller runs the keyword
        search; the answer waits for it."""
        ready = threading.Event()
        held: list[Vectors] = []
        answer: list[list[Neighbour]] = []
        failure: list[BaseException] = []

        def work() -> None:
            """Encode, then score once the vectors are read (numpy and onnxruntime free the
            GIL, so this overlaps the keyword query)."""
            try:
                query = self._query_vector(text=text)
                ready.wait()
                if held and len(held[0].ids):
                    answer.append(nearest(held=held[0], query=query, k=k, shortlist=self.shortlist))
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
        store: SemanticStore,
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
        return top(scores=scores, ids=held.ids[keep], k=k)

    def predict(
        self,
        *,
        store: SemanticStore,
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
        mean, weights = _ridge(x=x, y=y)
        rows = held.matrix[[held.rows[paper_id] for paper_id in wanted]].astype(np.float64)
        return {
            paper_id: mean + float(score)
            for paper_id, score in zip(wanted, rows @ weights, strict=True)
        }

    def taste_of(
        self,
        *,
        known: Sequence[tuple[bytes, float]],
        candidates: Sequence[bytes],
        named: Collection[int],
    ) -> list[tuple[float, int | None, float]]:
        """The same regression over vectors given rather than stored (suggestions are no
        papers yet): each candidate's predicted interest from `known` (vector, liking), the
        place in `known` of the closest of those `named` (None when none is) and its cosine."""
        if not known or not candidates:
            return [(0.0, None, 0.0) for _ in candidates]
        x = _matrix(blobs=[vector for vector, _ in known])
        y = np.array([liking for _, liking in known], dtype=np.float64)
        mean, weights = _ridge(x=x, y=y)
        rows = _matrix(blobs=candidates)
        places = sorted({place for place in named if 0 <= place < len(known)})
        closest: list[int | None] = [None] * len(candidates)
        cosines = [0.0] * len(candidates)
        if places:
            likeness = rows @ x[places].T
            best = likeness.argmax(axis=1)
            closest = [places[int(i)] for i in best]
            cosines = [float(likeness[row, int(i)]) for row, i in enumerate(best)]
        return [
            (mean + float(score), near, cosine)
            for score, near, cosine in zip(rows @ weights, closest, cosines, strict=True)
        ]


def _matrix(*, blobs: Sequence[bytes]) -> npt.NDArray[np.float64]:
    """Unit vectors (float32 bytes, as stored) as the rows of a matrix."""
    flat = np.frombuffer(b"".join(blobs), dtype=np.float32)
    return flat.reshape(len(blobs), -1).astype(np.float64)


def _ridge(
    *, x: npt.NDArray[np.float64], y: npt.NDArray[np.float64]
) -> tuple[float, npt.NDArray[np.float64]]:
    """Ridge regression from the rows of `x` to `y` in the dual form (a few dozen rows, 384
    dimensions): the mean of `y` and the weights a row's score is its product with."""
    mean = float(y.mean())
    alpha = np.linalg.solve(x @ x.T + RIDGE * np.eye(len(y)), y - mean)
    return mean, x.T @ alpha
