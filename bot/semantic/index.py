"""ports.Semantic over the encoder: each workspace's vectors held in memory as one float32
matrix, refreshed from the store when its vectors change, and searched with numpy (sqlite-vec
cannot load in this Python's sqlite3; 100k papers x 384 floats is 154 MB)."""

from __future__ import annotations

import threading
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
RIDGE = 1.0  # the taste model's regularisation: with a handful of votes, stay near the mean


@dataclass(frozen=True, slots=True)
class _Vectors:
    """One workspace's vectors: paper ids, their rows, and the store's version they reflect."""

    version: tuple[int, int]
    ids: npt.NDArray[np.int64]
    matrix: npt.NDArray[np.float32]
    rows: dict[int, int]

    @classmethod
    def of(cls, *, version: tuple[int, int], ids: list[int], blobs: list[bytes]) -> _Vectors:
        """Build from the store's rows (vectors as float32 bytes)."""
        flat = np.frombuffer(b"".join(blobs), dtype=np.float32)
        matrix = flat.reshape(len(ids), -1) if ids else np.zeros((0, 1), dtype=np.float32)
        rows = {paper_id: row for row, paper_id in enumerate(ids)}
        return cls(version, np.asarray(ids, dtype=np.int64), matrix, rows)


def _top(*, scores: npt.NDArray[np.float32], ids: npt.NDArray[np.int64], k: int) -> list[Neighbour]:
    """The k best scores, best first, as neighbours."""
    if k <= 0 or not len(scores):
        return []
    k = min(k, len(scores))
    best = np.argpartition(-scores, k - 1)[:k]
    best = best[np.lexsort((ids[best], -scores[best]))]  # ties: the older paper first
    return [Neighbour(paper_id=int(ids[i]), similarity=float(scores[i])) for i in best]


class VectorIndex:
    """Every workspace's vectors of one model, in memory, for search, related papers and taste."""

    def __init__(self, *, model: str, load: Callable[[], Encoder]) -> None:
        """Start empty: a workspace's vectors are read on its first search, and the model is
        loaded when a text is first encoded (reading vectors needs only the database)."""
        self.model = model
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
        """The workspace's vectors as the store has them now (new rows appended, else reread)."""
        version = store.vector_version(workspace=workspace, model=self.model)
        with self._lock:
            held = self._sets.get(workspace)
        if held is not None and held.version == version:
            return held
        after = held.version[1] if held is not None else 0
        rows = store.vectors_after(workspace=workspace, model=self.model, after=after)
        if held is not None and len(held.ids) + len(rows) == version[0]:
            ids = [*held.ids.tolist(), *(paper_id for _, paper_id, _ in rows)]
            blobs = [held.matrix.tobytes(), *(blob for _, _, blob in rows)]
        else:  # vectors went away (a paper deleted, a text changed): read them all again
            rows = (
                rows
                if held is None
                else store.vectors_after(workspace=workspace, model=self.model, after=0)
            )
            ids = [paper_id for _, paper_id, _ in rows]
            blobs = [blob for _, _, blob in rows]
        fresh = _Vectors.of(version=version, ids=ids, blobs=blobs)
        with self._lock:
            self._sets[workspace] = fresh
        return fresh

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
        vector: npt.NDArray[np.float32] = self.encoder.encode(texts=[text])[0]
        with self._lock:
            self._queries[text] = vector
            while len(self._queries) > QUERY_CACHE:
                self._queries.popitem(last=False)
        return vector

    def start_nearest(
        self, *, store: MeaningStore, workspace: WorkspaceKey, text: str, k: int
    ) -> Callable[[], list[Neighbour]]:
        """Read the vectors here (the store is this thread's), then encode and score on a
        thread of its own while the caller runs the keyword search; the answer waits for it."""
        held = self.vectors(store=store, workspace=workspace)
        answer: list[list[Neighbour]] = []
        failure: list[BaseException] = []

        def work() -> None:
            """Encode the query and score every vector (numpy and onnxruntime free the GIL)."""
            try:
                if len(held.ids):
                    query = self._query_vector(text=text)
                    answer.append(_top(scores=held.matrix @ query, ids=held.ids, k=k))
                else:
                    answer.append([])
            except BaseException as error:  # handed to the caller, who raises it
                failure.append(error)

        worker = threading.Thread(target=work, name="paperclub-nearest", daemon=True)
        worker.start()

        def wait() -> list[Neighbour]:
            """The neighbours, once the worker is done."""
            worker.join()
            if failure:
                raise failure[0]
            return answer[0]

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
