"""Vectors for the suggestions' taste model, held in memory rather than in the archive: texts
the semantic extra embedded, kept by digest, and the extra's predict and nearest_to run over
one scoring's rows (candidates and hidden suggestions are no papers: they have no stored
vector to read).

The rows of a scoring go to the extra as the vectors of a workspace no archive has
(WORKSPACE). Its index holds each workspace's vectors and notices new rows by their ids, as an
archive's would grow; so every scoring numbers its rows past all earlier ones (as if the
previous rows were deleted and new ones inserted), and the index never mistakes one
scoring's vectors for another's. Scorings take turns: a scoring's rows must stay what the
index holds from its predict to its last nearest_to.
"""

from __future__ import annotations

import hashlib
import itertools
import threading
from collections import OrderedDict
from collections.abc import Collection, Mapping, Sequence
from datetime import datetime

from bot.domain import Channel, ChannelKey, Paper, WorkspaceKey
from bot.domain.semantic import PickOrder, ReadPaper
from bot.ports import SearchRun, Semantic
from bot.search_query import SearchQuery

# No real workspace has this platform: the index keeps the scorings' rows apart from papers.
WORKSPACE = WorkspaceKey(platform="suggestion-taste", id="")
KEPT = 10_000  # vectors kept: 1.5 kB each at 384 floats, ~15 MB; the least lately used go first

_numbers = itertools.count(1)  # row ids, never reused in this process
_numbering = threading.Lock()
_scoring = threading.Lock()  # one scoring at a time owns WORKSPACE's rows in the index


def text_of(*, title: str, abstract: str) -> str:
    """What a paper's vector is made of: the text embedding.paper_text makes of a paper."""
    title, abstract = " ".join(title.split()), " ".join(abstract.split())
    return f"{title}. {abstract}" if abstract else title


def _digest(*, text: str) -> bytes:
    """A text's key: 16 bytes instead of a whole abstract."""
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).digest()


class TextVectors:
    """Texts' vectors, embedded once and kept (at most `kept`, the least lately used dropped
    first); safe to share across threads."""

    def __init__(self, *, kept: int = KEPT) -> None:
        """Nothing embedded yet."""
        self.kept = kept
        self._held: OrderedDict[bytes, bytes] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, *, text: str) -> bytes | None:
        """A text's vector, if it was embedded (and not dropped since)."""
        key = _digest(text=text)
        with self._lock:
            vector = self._held.get(key)
            if vector is not None:
                self._held.move_to_end(key)
            return vector

    def embed(self, *, semantic: Semantic, texts: Sequence[str], limit: int | None = None) -> int:
        """Embed the texts not held yet (the first `limit` of them, in the order given; the
        rest wait for a later call), keeping those asked for again; how many were embedded.
        The extra loads its model here, and only when some text is new."""
        new = [text for text in dict.fromkeys(texts) if self.get(text=text) is None][:limit]
        if not new:
            return 0
        vectors = semantic.embed(texts=new)
        with self._lock:
            for text, vector in zip(new, vectors, strict=True):
                self._held[_digest(text=text)] = vector
            while len(self._held) > self.kept:
                self._held.popitem(last=False)
        return len(new)


class _Rows:
    """ports.SemanticStore over one scoring's vectors: only the three methods the index reads
    vectors through; the rest belong to an archive, which this is not."""

    def __init__(self, *, vectors: Sequence[bytes]) -> None:
        """Number the vectors past every earlier scoring's: row id and paper id alike."""
        with _numbering:
            first = next(_numbers)
            for _ in range(len(vectors) - 1):
                next(_numbers)
        self.ids = list(range(first, first + len(vectors)))
        self._rows = [(n, n, vector) for n, vector in zip(self.ids, vectors, strict=True)]

    def vector_version(self, *, workspace: WorkspaceKey, model: str) -> tuple[int, int]:
        """How many vectors there are, and the largest row id."""
        return len(self._rows), self.ids[-1] if self.ids else 0

    def newest_vector(self, *, model: str) -> int:
        """The largest row id."""
        return self.ids[-1] if self.ids else 0

    def vectors_after(
        self, *, workspace: WorkspaceKey, model: str, after: int
    ) -> list[tuple[int, int, bytes]]:
        """(row id, paper id, vector) past row `after`."""
        return [row for row in self._rows if row[0] > after]

    def search_run(
        self, *, query: SearchQuery, viewer: ChannelKey | None, workspace: WorkspaceKey
    ) -> SearchRun:
        """Not an archive: nothing to search."""
        raise NotImplementedError("held vectors are not searched")

    def papers_to_embed(self, *, model: str, limit: int) -> list[Paper]:
        """Not an archive: no papers."""
        return []

    def count_to_embed(self, *, model: str) -> int:
        """Not an archive: no papers."""
        return 0

    def save_vectors(
        self, *, model: str, vectors: Sequence[tuple[int, bytes]], now: datetime
    ) -> int:
        """Not an archive: nothing is kept."""
        return 0

    def read_papers(self, *, workspace: WorkspaceKey, viewer: ChannelKey | None) -> list[ReadPaper]:
        """Not an archive: nothing was read."""
        return []

    def set_pick_order(self, *, channel: Channel, order: PickOrder) -> None:
        """Not an archive: no channels."""
        raise NotImplementedError("held vectors have no channels")

    def pick_reason(self, *, post_id: int) -> str | None:
        """Not an archive: no posts."""
        return None

    def set_pick_reason(self, *, post_id: int, reason: str) -> None:
        """Not an archive: no posts."""
        raise NotImplementedError("held vectors have no posts")


def predict_held(
    *,
    semantic: Semantic,
    known: Sequence[tuple[bytes, float]],
    named: Collection[int],
    candidates: Sequence[bytes],
) -> list[tuple[float, int | None] | None]:
    """For each candidate vector: the interest the extra predicts from the `known` vectors
    and how much the group liked each, and the place in `known` of the closest of those
    `named` (None when none is); None for a candidate it could not score."""
    rows = _Rows(vectors=[vector for vector, _ in known] + list(candidates))
    learnt, scored = rows.ids[: len(known)], rows.ids[len(known) :]
    liked: Mapping[int, float] = {n: weight for n, (_, weight) in zip(learnt, known, strict=True)}
    among = [learnt[place] for place in sorted(set(named))]
    place_of = {paper_id: place for place, paper_id in enumerate(learnt)}
    with _scoring:
        predicted = semantic.predict(
            store=rows, workspace=WORKSPACE, liked=liked, candidates=scored
        )
        found: list[tuple[float, int | None] | None] = []
        for paper_id in scored:
            if paper_id not in predicted:
                found.append(None)
                continue
            near = semantic.nearest_to(
                store=rows, workspace=WORKSPACE, paper_id=paper_id, among=among, k=1
            )
            place = place_of[near[0].paper_id] if near else None
            found.append((predicted[paper_id], place))
    return found
