"""The in-memory index: it follows the store (new vectors at once, removed ones at the next
count), and its coarse first pass finds what scoring every vector finds."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from sqlalchemy import delete

from bot.db.database import Database
from bot.db.schema import EmbeddingRow
from bot.domain import LOCAL
from bot.semantic import index as index_module
from bot.semantic import vectors as vectors_module
from bot.semantic.encoder import Encoder
from bot.semantic.index import VectorIndex
from tests.semantic.conftest import RELEVANCE, add_papers, corpus, embed_all

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def _nearest(index: VectorIndex, database: Database, text: str, k: int = 10) -> list[int]:
    """The ids of the k papers closest to a text."""
    with database(write=False) as store:
        return [
            n.paper_id for n in index.start_nearest(store=store, workspace=LOCAL, text=text, k=k)()
        ]


def test_the_coarse_pass_finds_what_scoring_every_vector_finds(
    database: Database, encoder: Encoder
) -> None:
    papers = [json.loads(line) for line in (RELEVANCE / "corpus_b.jsonl").read_text().splitlines()]
    add_papers(database, papers[:120], workspace=LOCAL)
    exact = VectorIndex(model=encoder.model, load=lambda: encoder)
    embed_all(database, exact)  # type: ignore[arg-type]
    coarse = VectorIndex(model=encoder.model, load=lambda: encoder, coarse_from=1, shortlist=36)
    queries = [
        json.loads(line)["query"]
        for line in (RELEVANCE / "queries_b.jsonl").read_text().splitlines()
    ]
    same = 0
    for text in queries:
        full, rough = _nearest(exact, database, text), _nearest(coarse, database, text)
        assert len(rough) == len(full) == 10
        same += len(set(full) & set(rough))
    with database(write=False) as store:
        held = coarse.vectors(store=store, workspace=LOCAL)
    assert held.coarse is not None
    assert held.coarse.shape == (120, vectors_module.COARSE_DIMENSIONS)
    # A shortlist of 36 of 120 (the same share as 60 of 200) keeps nearly all of every
    # query's ten nearest.
    assert same >= 0.95 * 10 * len(queries)


def test_new_vectors_show_at_once_and_removed_ones_at_the_next_count(
    database: Database, encoder: Encoder
) -> None:
    index = VectorIndex(model=encoder.model, load=lambda: encoder)
    counting = VectorIndex(model=encoder.model, load=lambda: encoder, recount=0.0)
    add_papers(database, corpus("b130", "b138"), workspace=LOCAL)
    embed_all(database, index)  # type: ignore[arg-type]
    with database(write=False) as store:
        assert len(index.vectors(store=store, workspace=LOCAL).ids) == 2
        assert len(counting.vectors(store=store, workspace=LOCAL).ids) == 2
    add_papers(database, corpus("b147"), workspace=LOCAL)
    embed_all(database, index)  # type: ignore[arg-type]
    with database(write=False) as store:
        held = index.vectors(store=store, workspace=LOCAL)
    assert sorted(held.ids.tolist()) == [1, 2, 3] and held.matrix.shape == (3, 384)
    with database() as store:
        store.session.execute(delete(EmbeddingRow).where(EmbeddingRow.paper_id == 1))
    with database(write=False) as store:
        # Within RECOUNT the removal is not looked for (a search checks its hits anyway)...
        assert sorted(index.vectors(store=store, workspace=LOCAL).ids.tolist()) == [1, 2, 3]
        # ...and at the count it is seen.
        assert sorted(counting.vectors(store=store, workspace=LOCAL).ids.tolist()) == [2, 3]
    assert index_module.RECOUNT <= 60  # a removed paper's vector is gone within a minute


class _NoLookup:
    """Titles need no look-up."""

    def by_arxiv_id(self, *, arxiv_id: str) -> None:
        """Nothing."""

    def by_doi(self, *, doi: str) -> None:
        """Nothing."""


def test_an_added_paper_gets_its_vector_at_once_once_the_model_is_loaded(
    database: Database, encoder: Encoder
) -> None:
    from bot.domain import ChannelKey
    from bot.runtime.clock import SystemClock
    from bot.semantic.background import Embedder
    from bot.semantic.lazy import LazySemantic
    from bot.services import adding

    semantic = LazySemantic(model=encoder.model, load=lambda: encoder)
    embedder = Embedder(uow=database, semantic=semantic, clock=SystemClock())
    extra = embedder.semantic_extra  # as the wiring hands it to the club
    assert extra.index is semantic
    here = ChannelKey(platform="slack", workspace="T1", channel="C1")
    embedder.start()
    try:
        adding.add(
            uow=database,
            lookup=_NoLookup(),
            text="Wombat scheduling on racks",
            channel=here,
            user="U1",
            now=NOW,
            semantic_extra=extra,
        )
        # The model is not loaded yet: an add alone does not load it (the sweep's pass will).
        assert not embedder.passed.is_set()
        with database(write=False) as store:
            assert store.count_to_embed(model=semantic.model) == 1
        semantic.index().encoder  # a search would have loaded it
        adding.add(
            uow=database,
            lookup=_NoLookup(),
            text="Koala caching for key-value stores",
            channel=here,
            user="U1",
            now=NOW,
            semantic_extra=extra,
        )
        assert embedder.passed.wait(timeout=30)
        with database(write=False) as store:
            assert store.count_to_embed(model=semantic.model) == 0  # both, in that one pass
    finally:
        embedder.close()
