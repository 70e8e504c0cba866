"""The semantic extra's scorer for the ranking benchmark: the group's taste model over the
papers it read, as the taste picker uses it (bot/services/taste.py), for rank()'s `scorer`.

The bot has no such scorer wired yet; this one is made of the extra's own parts: the encoder
embeds each paper's "title. abstract" (bot/services/embedding.py's paper_text), and
VectorIndex.predict (ridge regression from the read papers' vectors to how much the group
liked them) scores each candidate; VectorIndex.nearest_to names the liked paper read that
it is closest to. Vectors are held in memory, not in an archive: the index reads them
through the three store methods it needs. Like the taste picker, it says nothing before the
group has read MIN_READ papers and liked them unequally.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from bot.domain import LOCAL, WorkspaceKey
from bot.semantic.encoder import Encoder, SemanticUnavailable, load_encoder
from bot.semantic.index import VectorIndex
from bot.services.taste import MIN_READ
from bot.sources.candidates import Candidate
from bot.sources.rank import Closeness, GroupRead, Scorer

ScorerFor = Callable[[Sequence[GroupRead]], Scorer | None]


class _HeldVectors:
    """The store's side of VectorIndex over vectors in a list: paper id n is row n."""

    def __init__(self, *, blobs: Sequence[bytes]) -> None:
        """Vectors as float32 bytes, paper ids 1, 2, …"""
        self._blobs = blobs

    def vector_version(self, *, workspace: WorkspaceKey, model: str) -> tuple[int, int]:
        """How many vectors there are, and the largest row id (the same)."""
        return len(self._blobs), len(self._blobs)

    def newest_vector(self, *, model: str) -> int:
        """The largest row id."""
        return len(self._blobs)

    def vectors_after(
        self, *, workspace: WorkspaceKey, model: str, after: int
    ) -> list[tuple[int, int, bytes]]:
        """(row id, paper id, vector) past row `after`."""
        return [(n, n, blob) for n, blob in enumerate(self._blobs, start=1) if n > after]


class _Embedder:
    """The encoder, with each text's vector kept: the history is scored again every day."""

    def __init__(self, *, encoder: Encoder) -> None:
        """Nothing embedded yet."""
        self.encoder = encoder
        self._done: dict[str, bytes] = {}

    def vectors(self, *, texts: Sequence[str]) -> list[bytes]:
        """Each text's unit vector as float32 bytes."""
        new = list(dict.fromkeys(t for t in texts if t not in self._done))
        if new:
            for text, row in zip(new, self.encoder.encode(texts=new), strict=True):
                self._done[text] = row.tobytes()
        return [self._done[text] for text in texts]


def _text(*, title: str, abstract: str) -> str:
    """What a paper's vector is made of, as paper_text makes it."""
    title, abstract = " ".join(title.split()), " ".join(abstract.split())
    return f"{title}. {abstract}" if abstract else title


def taste_scorer_for() -> tuple[ScorerFor | None, str]:
    """A maker of the day's scorer from the history, or None and why the extra is missing."""
    try:
        encoder = load_encoder()
    except SemanticUnavailable as error:
        return None, str(error)
    embedder = _Embedder(encoder=encoder)

    def scorer_for(history: Sequence[GroupRead]) -> Scorer | None:
        """The taste model of `history`, None while it has too little to learn from."""
        if len(history) < MIN_READ or len({r.liking for r in history}) < 2:
            return None

        def scorer(candidates: Sequence[Candidate]) -> Mapping[Candidate, Closeness]:
            """Each candidate's predicted liking and the liked paper read closest to it."""
            texts = [_text(title=r.title, abstract=r.abstract) for r in history]
            texts += [_text(title=c.title, abstract=c.abstract) for c in candidates]
            store = _HeldVectors(blobs=embedder.vectors(texts=texts))
            index = VectorIndex(model=encoder.model, load=lambda: encoder)
            liked = {n: r.liking for n, r in enumerate(history, start=1)}
            ids = list(range(len(history) + 1, len(texts) + 1))
            predicted = index.predict(store=store, workspace=LOCAL, liked=liked, candidates=ids)
            good = [n for n, liking in liked.items() if liking > 0]
            found = {}
            for paper_id, candidate in zip(ids, candidates, strict=True):
                if paper_id not in predicted:
                    continue
                near = index.nearest_to(
                    store=store, workspace=LOCAL, paper_id=paper_id, among=good, k=1
                )
                title = history[near[0].paper_id - 1].title if near else None
                found[candidate] = Closeness(score=predicted[paper_id], title=title)
            return found

        return scorer

    return scorer_for, ""
