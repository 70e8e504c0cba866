"""The services' half of the semantic extra, without the model: which index is installed and
why none is, what a paper's vector is made of, and giving papers their vectors a batch at a
time (with a stand-in encoder: tests/semantic/ runs the real one)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime

from bot.db.database import Database
from bot.domain import LOCAL, Paper, PaperStatus, WorkspaceKey
from bot.domain.semantic import Neighbour
from bot.ports import SemanticStore
from bot.services import embedding, listing
from tests.conftest import SAMPLE_ENTRIES
from tests.services.conftest import load_sample
from tests.services.support import MONDAY


@dataclass
class StandInEncoder:
    """A Semantic whose vectors are zeros; it records the texts of each batch."""

    model: str = "stand-in"
    batches: list[list[str]] = field(default_factory=list)
    known: set[int] = field(default_factory=set)

    def embed(self, *, texts: Sequence[str]) -> list[bytes]:
        """A vector per text, recording the batch."""
        self.batches.append(list(texts))
        return [bytes(16) for _ in texts]

    def knows(self, *, store: SemanticStore, workspace: WorkspaceKey, paper_id: int) -> bool:
        """The papers the test says have a vector."""
        return paper_id in self.known

    def start_nearest(
        self, *, store: SemanticStore, workspace: WorkspaceKey, text: str, k: int
    ) -> Callable[[], list[Neighbour]]:
        """Not used here."""
        raise NotImplementedError

    def nearest_to(
        self,
        *,
        store: SemanticStore,
        workspace: WorkspaceKey,
        paper_id: int,
        among: Collection[int],
        k: int,
    ) -> list[Neighbour]:
        """Not used here."""
        raise NotImplementedError

    def predict(
        self,
        *,
        store: SemanticStore,
        workspace: WorkspaceKey,
        liked: Mapping[int, float],
        candidates: Sequence[int],
    ) -> dict[int, float]:
        """Not used here."""
        raise NotImplementedError

    def taste_of(
        self,
        *,
        known: Sequence[tuple[bytes, float]],
        candidates: Sequence[bytes],
        named: Collection[int],
    ) -> list[tuple[float, int | None, float]]:
        """Not used here."""
        raise NotImplementedError


def _clock() -> datetime:
    """The fixed instant vectors are stamped with."""
    return MONDAY


def test_the_extra_its_reason_and_written() -> None:
    none = embedding.NO_SEMANTIC
    assert none.index is None and none.reason == embedding.NOT_INSTALLED
    assert embedding.SemanticExtra(why="PAPERCLUB_SEMANTIC=off").reason == "PAPERCLUB_SEMANTIC=off"
    assert embedding.SemanticExtra(why="").reason == embedding.NOT_INSTALLED
    told: list[int] = []
    encoder = StandInEncoder()
    extra = embedding.SemanticExtra(index=encoder, on_write=lambda: told.append(1))
    assert extra.index is encoder
    extra.written()
    assert told == [1]
    none.written()  # nobody is told without an embedder
    assert told == [1] and none.index is None


def test_a_papers_text_is_its_title_and_abstract_with_spaces_tidied() -> None:
    paper = Paper(
        id=1,
        title=" Wombat\n routing ",
        abstract="Sparse\tmeshes  for marsupials.",
        authors=(),
        url=None,
        arxiv_id=None,
        doi=None,
        source="t",
        added_by=None,
        added_at=MONDAY,
        position=1,
        status=PaperStatus.QUEUED,
    )
    assert embedding.paper_text(paper=paper) == "Wombat routing. Sparse meshes for marsupials."
    assert embedding.paper_text(paper=replace(paper, abstract=" ")) == "Wombat routing"


def test_embed_pending_in_batches_resuming_where_it_stopped(database: Database) -> None:
    load_sample(database)
    encoder = StandInEncoder()
    seen: list[tuple[int, int]] = []

    def embed(*, limit: int | None = None, stop: bool = False) -> int:
        return embedding.embed_pending(
            uow=database,
            semantic=encoder,
            now=_clock,
            batch=2,
            limit=limit,
            progress=lambda done, total: seen.append((done, total)),
            stop=lambda: stop,
        )

    assert embed(limit=5) == 5
    assert seen == [(2, 5), (4, 5), (5, 5)] and [len(b) for b in encoder.batches] == [2, 2, 1]
    assert embed(stop=True) == 0
    assert embed() == SAMPLE_ENTRIES - 5
    assert embed() == 0
    texts = [text for batch in encoder.batches for text in batch]
    assert len(texts) == len(set(texts)) == SAMPLE_ENTRIES  # each paper once


def test_ensure_vector_embeds_a_paper_that_has_none(database: Database) -> None:
    load_sample(database)
    encoder = StandInEncoder()
    first, second = (r.paper for r in listing.records(uow=database, workspace=LOCAL)[:2])
    encoder.known.add(second.id)
    with database() as store:
        for paper in (first, second):
            embedding.ensure_vector(
                store=store, semantic=encoder, paper=paper, workspace=LOCAL, now=MONDAY
            )
    assert encoder.batches == [[embedding.paper_text(paper=first)]]
    # Stored: the background embedder has one paper fewer to do.
    done = embedding.embed_pending(uow=database, semantic=encoder, now=_clock)
    assert done == SAMPLE_ENTRIES - 1
