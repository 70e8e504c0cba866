"""Enrichment end to end against the fake arXiv and Crossref: what is found and applied, what
must not match, what is left for a person, and how the services' limits and failures are met."""

from __future__ import annotations

import itertools
import logging

import pytest

from bot.db.schema import PaperRow
from bot.domain import Paper, PaperDraft
from bot.enrich.service import Result, enrich
from bot.enrich.setup import PRODUCT
from tests.enrich.conftest import NOW, World
from tests.fakelookup import Record

OPENING = (
    "Although code generation for Convolution Neural Network models has been extensively "
    "studied, performing efficient data slicing for constrained Multicore Neural Processor "
    "Units is still a challenging…"
)
QUILL = Record(
    title="Quill: Slicing CNNs for Multicore NPUs",
    authors=("Ana Silva", "Bo Chen"),
    abstract=OPENING.removesuffix("challenging…")
    + "challenging problem. We present Quill, a compiler that tiles tensors across cores.",
    arxiv_id="2409.01234",
    doi="10.5555/quill",
    published="2024-09-03",
    url=None,
)


def _paper(world: World, paper_id: int = 1) -> Paper:
    """A paper as the archive holds it now."""
    with world.database(write=False) as store:
        paper = store.paper(paper_id=paper_id)
    assert paper is not None
    return paper


def _cut_entry() -> PaperDraft:
    """A reading-list entry: only a cut abstract, its title made from it."""
    return PaperDraft(
        title="Performing efficient data slicing…",
        abstract=OPENING,
        title_derived=True,
        origin="list.txt:3",
    )


def test_a_cut_abstract_is_found_by_its_opening_and_completed(world: World) -> None:
    world.scholar.add(QUILL)
    world.add(_cut_entry())
    [outcome] = enrich(uow=world.database, sources=world.sources, now=NOW)
    assert outcome.result is Result.FOUND
    paper = _paper(world)
    assert (paper.title, paper.abstract) == (QUILL.title, QUILL.abstract)
    assert (paper.arxiv_id, paper.authors) == ("2409.01234", ("Ana Silva", "Bo Chen"))
    assert not paper.title_derived
    with world.database(write=False) as store:
        _locked, published = store.enrichment_state(paper_id=1)
        row_provenance = store.session.get(PaperRow, 1).provenance
    assert published is not None and published.isoformat() == "2024-09-03"
    assert row_provenance["abstract"] == OPENING and row_provenance["title"].startswith(
        "Performing"
    )


def test_a_title_with_its_authors_is_found(world: World) -> None:
    world.scholar.add(QUILL)
    world.add(
        PaperDraft(
            title="Quill: slicing CNNs for multicore NPUs",
            authors=("A. Silva",),
            origin="list.txt:1",
        )
    )
    [outcome] = enrich(uow=world.database, sources=world.sources, now=NOW)
    assert outcome.result is Result.FOUND
    assert _paper(world).abstract == QUILL.abstract


def test_a_near_miss_is_not_taken(world: World) -> None:
    other = (
        "Although code generation for Convolution Neural Network models has been extensively "
        "studied on servers, phones need another approach entirely, which we give here."
    )
    world.scholar.add(Record(**{**QUILL.__dict__, "abstract": other}))
    world.add(_cut_entry())
    [outcome] = enrich(uow=world.database, sources=world.sources, now=NOW)
    assert outcome.result is Result.NONE
    assert _paper(world).abstract == OPENING


def test_two_papers_that_fit_are_unclear_and_nothing_is_applied(world: World) -> None:
    world.scholar.add(QUILL)
    world.scholar.add(
        Record(
            **{
                **QUILL.__dict__,
                "title": "Quill 2: More Slicing",
                "authors": ("Zed Wu",),
                "arxiv_id": "2501.00002",
                "doi": None,
            }
        )
    )
    world.add(_cut_entry())
    [outcome] = enrich(uow=world.database, sources=world.sources, now=NOW)
    assert outcome.result is Result.UNCLEAR and len(outcome.candidates) == 2
    assert _paper(world).abstract == OPENING
    with world.database(write=False) as store:
        kept = store.candidates_of(paper_id=1)
        assert {c["title"] for c in kept} == {QUILL.title, "Quill 2: More Slicing"}
        assert store.papers_to_enrich(ids=None) == []  # it waits for a person now


def test_a_field_a_person_typed_is_left_alone(world: World) -> None:
    world.scholar.add(QUILL)
    world.add(_cut_entry())
    with world.database() as store:
        row = store.session.get(PaperRow, 1)
        row.title, row.locked = "Our own name for it", ["title"]
    [outcome] = enrich(uow=world.database, sources=world.sources, now=NOW)
    assert outcome.result is Result.FOUND
    paper = _paper(world)
    assert paper.title == "Our own name for it" and paper.abstract == QUILL.abstract


def test_a_second_run_asks_nothing_the_cache_holds(world: World) -> None:
    world.scholar.add(QUILL)
    world.add(_cut_entry())
    enrich(uow=world.database, sources=world.sources, now=NOW, dry_run=True)
    asked = len(world.scholar.requests)
    again = enrich(uow=world.database, sources=world.sources, now=NOW, dry_run=True)
    assert [o.result for o in again] == [Result.FOUND] and len(world.scholar.requests) == asked


def test_a_dry_run_changes_nothing(world: World) -> None:
    world.scholar.add(QUILL)
    world.add(_cut_entry())
    [outcome] = enrich(uow=world.database, sources=world.sources, now=NOW, dry_run=True)
    assert {c.field for c in outcome.changes} >= {"title", "abstract", "arxiv_id", "authors"}
    assert _paper(world).abstract == OPENING


def test_a_503_with_retry_after_is_waited_for(world: World) -> None:
    world.scholar.add(QUILL)
    world.add(_cut_entry())
    world.scholar.fail_next("arxiv", status=503, retry_after=20)
    [outcome] = enrich(uow=world.database, sources=world.sources, now=NOW)
    assert outcome.result is Result.FOUND
    arxiv = [at for service, at in world.time.starts if service == "arxiv"]
    assert arxiv[1] - arxiv[0] >= 20  # the retry waited what the 503 said


def test_a_timeout_is_unreachable_said_once_and_the_run_carries_on(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    from tests.enrich.conftest import make_sources

    world.scholar.add(QUILL)
    world.add(
        _cut_entry(),
        PaperDraft(
            title="Another…",
            abstract=OPENING.replace("Although", "While"),
            title_derived=True,
            origin="list.txt:5",
        ),
    )
    world.scholar.stall_next("arxiv", 3.0)
    sources = make_sources(
        database=world.database, scholar=world.scholar, time=world.time, timeout=0.5
    )
    outcomes = enrich(uow=world.database, sources=sources, now=NOW)
    assert [o.result for o in outcomes] == [Result.UNREACHABLE, Result.UNREACHABLE]
    assert list(sources.down) == ["arxiv"] and world.scholar.count("arxiv") == 1
    # The second paper, never asked, still says whole what was down and why.
    said = "arXiv could not be reached: no answer within 0.5 s"
    assert [o.reason for o in outcomes] == [said, said]


def test_a_malformed_feed_is_logged_not_cached(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    world.scholar.add(QUILL)
    world.add(_cut_entry())
    world.scholar.malformed_next("arxiv")
    with caplog.at_level(logging.WARNING):
        [first] = enrich(uow=world.database, sources=world.sources, now=NOW, dry_run=True)
    assert first.result is Result.NONE and "unreadable" in caplog.text
    [second] = enrich(uow=world.database, sources=world.sources, now=NOW)
    assert second.result is Result.FOUND  # asked again: the garbled answer was not kept


def test_a_burst_of_fifty_papers_keeps_arxivs_pace(world: World) -> None:
    for n in range(50):
        words = (
            f"Paper {n} studies the scheduling of distributed training jobs number {n} under load"
        )
        world.add(
            PaperDraft(
                title=f"Paper {n}…",
                abstract=words + " and failures…",
                title_derived=True,
                origin=f"list.txt:{n}",
            )
        )
    outcomes = enrich(uow=world.database, sources=world.sources, now=NOW)
    assert len(outcomes) == 50
    arxiv = [at for service, at in world.time.starts if service == "arxiv"]
    assert len(arxiv) == world.scholar.count("arxiv") == 50
    assert min(b - a for a, b in itertools.pairwise(arxiv)) >= 3.0
    user_agents = {r.headers.get("User-Agent") for r in world.scholar.requests}
    assert user_agents == {f"{PRODUCT}; mailto:club@example.org)"}


def test_a_person_picks_one_of_an_unclear_matchs_records(world: World) -> None:
    from bot.enrich.service import confirm

    twin = Record(
        **{
            **QUILL.__dict__,
            "title": "Quill 2: More Slicing",
            "authors": ("Zed Wu",),
            "arxiv_id": "2501.00002",
            "doi": None,
        }
    )
    world.scholar.add(QUILL)
    world.scholar.add(twin)
    world.add(_cut_entry())
    [outcome] = enrich(uow=world.database, sources=world.sources, now=NOW)
    picked = [c.title for c in outcome.candidates].index("Quill 2: More Slicing") + 1
    assert confirm(uow=world.database, paper_id=1, pick=9, now=NOW) is None
    done = confirm(uow=world.database, paper_id=1, pick=picked, now=NOW)
    assert done is not None and done.result is Result.FOUND
    paper = _paper(world)
    assert (paper.title, paper.arxiv_id) == ("Quill 2: More Slicing", "2501.00002")


def test_a_title_typed_into_paperclub_add_is_kept(world: World) -> None:
    from bot.domain import ChannelKey
    from bot.services.adding import add
    from bot.services.embedding import NO_SEMANTIC

    class Offline:
        """No by-id lookups: the paper is added as typed."""

        def by_arxiv_id(self, *, arxiv_id: str) -> None:
            """Nothing."""

        def by_doi(self, *, doi: str) -> None:
            """Nothing."""

    long_title = "Quill: Slicing Convolutional Networks for Multicore Neural Processors"
    world.scholar.add(Record(**{**QUILL.__dict__, "title": long_title}))
    key = ChannelKey(platform="slack", workspace="T1", channel="C1")
    typed = "Quill: Slicing Convolutional Networks for Multicore…"
    add(
        uow=world.database,
        lookup=Offline(),
        text=typed,
        channel=key,
        user="U1",
        now=NOW,
        semantic_extra=NO_SEMANTIC,
    )
    [outcome] = enrich(uow=world.database, sources=world.sources, now=NOW)
    assert outcome.result is Result.FOUND
    paper = _paper(world)
    assert paper.title == typed  # as the person typed it, though it is cut
    assert paper.abstract == QUILL.abstract
