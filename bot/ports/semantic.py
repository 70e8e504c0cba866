"""Ports for meaning: the store's side (vectors, read papers, search in steps) and the semantic
extra's (embedding, nearest neighbours, the group's taste). Vectors cross the core as opaque
bytes: only the extra reads them."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from datetime import datetime
from typing import Protocol

from bot.domain import Channel, ChannelKey, Paper, SearchHit, WorkspaceKey
from bot.domain.semantic import Neighbour, PickOrder, Ranked, ReadPaper
from bot.search_query import SearchQuery


class SearchRun(Protocol):
    """One search in steps, so the core can fuse keyword and vector rankings."""

    def ranked(self, *, depth: int) -> tuple[list[Ranked], int, bool]:
        """Keyword candidates (at least `depth`): those with every word best first, then the
        related ones with some (Ranked.every_word False); how many match either way; and
        whether no paper had every word so any of them counted (relaxed)."""
        ...

    def admitted(self, *, ids: Sequence[int]) -> set[int]:
        """The ids that pass every exact part of the query (phrases, -words, author:, filters,
        workspace and privacy) whatever their words."""
        ...

    def hits(self, *, page: Sequence[Ranked]) -> tuple[SearchHit, ...]:
        """The page's papers, posts, votes and snippets, in the page's order."""
        ...

    def author_words(
        self, *, grams: Sequence[str], shortest: int, longest: int, least: int
    ) -> list[str]:
        """The archive's folded author words of `shortest` to `longest` letters holding at
        least `least` of `grams` (every word of those lengths when `least` < 1)."""
        ...

    def author_names(self, *, words: Sequence[Collection[str]]) -> list[tuple[int, str]]:
        """(id, name as written) of every name a paper of the workspace names holding a word
        of each set of `words`, and of each such name whose words are not indexed yet (the
        caller judges those itself); names of other workspaces' papers are not read."""
        ...

    def papers_named(self, *, names: Sequence[int], limit: int) -> list[int]:
        """The workspace's papers (hidden ones too: `admitted` says which may be shown) naming
        one of `names`, newest (largest id) first, at most `limit`."""
        ...


class SemanticStore(Protocol):
    """What the store keeps for meaning: vectors, the papers read, each channel's pick order."""

    def search_run(
        self, *, query: SearchQuery, viewer: ChannelKey | None, workspace: WorkspaceKey
    ) -> SearchRun:
        """A search of one workspace, as `viewer` may see it, to be run in steps."""
        ...

    def vector_version(self, *, workspace: WorkspaceKey, model: str) -> tuple[int, int]:
        """How many vectors of `model` the workspace has and their largest row id."""
        ...

    def newest_vector(self, *, model: str) -> int:
        """The largest row id of any vector of `model` (0 with none): an index seek."""
        ...

    def vectors_after(
        self, *, workspace: WorkspaceKey, model: str, after: int
    ) -> list[tuple[int, int, bytes]]:
        """(row id, paper id, vector) of the workspace's vectors past row id `after`."""
        ...

    def papers_to_embed(self, *, model: str, limit: int) -> list[Paper]:
        """Papers with no vector of `model` yet, oldest first."""
        ...

    def count_to_embed(self, *, model: str) -> int:
        """How many papers have no vector of `model` yet."""
        ...

    def save_vectors(
        self, *, model: str, vectors: Sequence[tuple[int, bytes]], now: datetime
    ) -> int:
        """Keep (paper id, vector) pairs, skipping papers gone or done meanwhile; the count kept."""
        ...

    def read_papers(self, *, workspace: WorkspaceKey, viewer: ChannelKey | None) -> list[ReadPaper]:
        """Every paper posted in the workspace (as `viewer` may see it), latest post each."""
        ...

    def set_pick_order(self, *, channel: Channel, order: PickOrder) -> None:
        """How the channel's next paper is picked."""
        ...

    def pick_reason(self, *, post_id: int) -> str | None:
        """Why the taste picker chose a post's paper, if it did."""
        ...

    def set_pick_reason(self, *, post_id: int, reason: str) -> None:
        """Keep why a post's paper was picked."""
        ...


class Semantic(Protocol):
    """The semantic extra: a sentence-embedding model and the vectors kept in memory."""

    model: str

    def embed(self, *, texts: Sequence[str]) -> list[bytes]:
        """One unit vector a text, as bytes for the store."""
        ...

    def knows(self, *, store: SemanticStore, workspace: WorkspaceKey, paper_id: int) -> bool:
        """Whether a paper of the workspace has a vector of this model."""
        ...

    def start_nearest(
        self, *, store: SemanticStore, workspace: WorkspaceKey, text: str, k: int
    ) -> Callable[[], list[Neighbour]]:
        """Start finding the workspace's `k` papers closest to `text`; call the answer to
        wait for them (the keyword search runs meanwhile)."""
        ...

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
        ...

    def predict(
        self,
        *,
        store: SemanticStore,
        workspace: WorkspaceKey,
        liked: Mapping[int, float],
        candidates: Sequence[int],
    ) -> dict[int, float]:
        """Predicted interest in each candidate with a vector, learnt from how much the group
        liked the papers it read (`liked`: paper id -> score)."""
        ...

    def taste_of(
        self,
        *,
        known: Sequence[tuple[bytes, float]],
        candidates: Sequence[bytes],
        named: Collection[int],
    ) -> list[tuple[float, int | None, float]]:
        """predict's model over vectors given rather than stored (candidates are no papers):
        for each candidate, the interest predicted from `known` (vector, how much the group
        liked it), the place in `known` of the closest of those `named` (None: none), and
        that closest one's cosine similarity (0.0 with none)."""
        ...
