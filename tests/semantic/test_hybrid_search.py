"""Search with the semantic extra: keyword and vector rankings fused, the query's exact parts
kept exact, privacy and workspaces kept, hostile text harmless; real SQLite and PostgreSQL,
the real model."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.db.database import Database
from bot.db.migrate import upgrade_url
from bot.domain import LOCAL, ChannelKey, WorkspaceKey
from bot.semantic.encoder import Encoder
from bot.semantic.lazy import LazySemantic
from bot.services import search
from bot.services.embedding import NO_SEMANTIC, SemanticExtra
from bot.services.search_spelled import forgiving_search
from bot.services.telemetry import Telemetry
from bot.wording import semantic as words
from tests.semantic.conftest import NOW, add_papers, corpus, embed_all
from tests.services.conftest import WEEKDAYS

PROTEIN = ("b130", "b138", "b147")  # protein structure: what the paraphrase below means
# The papers bm25 puts first for it (their words: geometry, computational, determining ...),
# and more of the corpus around them.
DISTRACTORS = ("b066", "b164", "b048", *(f"b{n:03d}" for n in range(1, 41)))
PARAPHRASE = "computationally determining the 3D geometry of polypeptides"


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Database]:
    """One SQLite archive of 46 judged papers with their vectors, read by every test here."""
    url = f"sqlite:///{tmp_path_factory.mktemp('hybrid') / 'club.db'}"
    upgrade_url(url=url)
    database = Database(url=url)
    add_papers(database, corpus(*PROTEIN, *DISTRACTORS), workspace=LOCAL)
    yield database
    database.dispose()


@pytest.fixture
def embedded(archive: Database, semantic: LazySemantic) -> Database:
    """The archive with every vector made (once: later calls find nothing to do)."""
    embed_all(archive, semantic)
    return archive


def _search(
    database: Database,
    text: str,
    extra: SemanticExtra,
    *,
    viewer: ChannelKey | None,
    workspace: WorkspaceKey | None = None,
    limit: int = search.PAGE_SIZE,
    offset: int = 0,
) -> search.SearchResult:
    """A search with the extra given (and no metrics)."""
    return search.search(
        uow=database,
        text=text,
        viewer=viewer,
        semantic_extra=extra,
        telemetry=Telemetry(),
        limit=limit,
        offset=offset,
        workspace=workspace,
    )


def _titles(
    database: Database, text: str, extra: SemanticExtra, *, limit: int = 5, offset: int = 0
) -> list[str]:
    """The titles a search lists, as the operator sees the only workspace."""
    result = _search(
        database, text, extra, viewer=None, limit=limit, offset=offset, workspace=LOCAL
    )
    return [hit.paper.title for hit in result.page.hits]


PROTEIN_TITLES = {paper["title"] for paper in corpus(*PROTEIN)}


def test_a_paraphrase_is_found_by_meaning_where_words_fail(
    embedded: Database, semantic: LazySemantic
) -> None:
    extra = SemanticExtra(index=semantic)
    hybrid = _titles(embedded, PARAPHRASE, extra)
    result = _search(embedded, PARAPHRASE, extra, viewer=None, workspace=LOCAL)
    assert result.engine == "hybrid" and "reciprocal rank" in result.why
    assert hybrid[0] in PROTEIN_TITLES
    keyword = _titles(embedded, PARAPHRASE, NO_SEMANTIC)
    plain = _search(embedded, PARAPHRASE, NO_SEMANTIC, viewer=None, workspace=LOCAL)
    assert plain.engine == "keyword" and "not installed" in plain.why
    assert not PROTEIN_TITLES & set(keyword[:3])  # what bm25 alone ranks first is off-topic


def test_a_keyword_query_keeps_its_best_hit(embedded: Database, semantic: LazySemantic) -> None:
    title = corpus("b147")[0]["title"]
    extra = SemanticExtra(index=semantic)
    assert _titles(embedded, "coevolutionary contact map", extra)[0] == title
    assert _titles(embedded, "coevolutionary contact map", NO_SEMANTIC)[0] == title


def test_each_hit_explains_its_place(embedded: Database, semantic: LazySemantic) -> None:
    extra = SemanticExtra(index=semantic)
    result = _search(embedded, PARAPHRASE, extra, viewer=None, workspace=LOCAL)
    assert len(result.explained) == len(result.page.hits) > 0
    for item, hit in zip(result.explained, result.page.hits, strict=True):
        assert item.ranked.paper_id == hit.paper.id and hit.score == item.score
        assert item.keyword_rank is not None or item.vector_rank is not None
    scores = [item.score for item in result.explained]
    assert scores == sorted(scores, reverse=True)


def test_excluded_words_authors_and_phrases_stay_exact(
    embedded: Database, semantic: LazySemantic
) -> None:
    extra = SemanticExtra(index=semantic)
    excluded = _titles(embedded, f"{PARAPHRASE} -protein", extra, limit=20)
    papers = {p["title"]: p for p in corpus(*PROTEIN, *DISTRACTORS)}
    assert excluded, "meaning still finds papers without the word"
    for title in excluded:
        text = f"{title} {papers[title]['abstract']}".lower()
        assert not re.search(r"\bprotein", text), title
    by_author = _titles(embedded, f"{PARAPHRASE} author:Oyamada", extra, limit=20)
    assert by_author == [corpus("b138")[0]["title"]]
    phrase = _titles(embedded, f'{PARAPHRASE} "multiple sequence alignments"', extra, limit=20)
    assert phrase and all(
        "multiple sequence alignment" in f"{t} {papers[t]['abstract']}".lower() for t in phrase
    )
    assert _titles(embedded, f"{PARAPHRASE} is:posted", extra) == []  # nothing was posted yet


def test_pages_follow_on_without_repeats(embedded: Database, semantic: LazySemantic) -> None:
    extra = SemanticExtra(index=semantic)
    first = _titles(embedded, PARAPHRASE, extra, limit=5)
    second = _titles(embedded, PARAPHRASE, extra, limit=5, offset=5)
    assert len(first) == 5 and second and not set(first) & set(second)


@pytest.mark.parametrize(
    "text",
    [
        "🧬" * 10_000,
        "<!channel> <@U123> @everyone *bold* <https://evil.example|x> " * 160,
        '"unclosed phrase -"" author: -author:x is:nothing NEAR(a b) ^ * OR AND',
        "\x00\x01 \u202e ﷽ \ud800",
    ],
)
def test_hostile_queries_are_only_text(
    embedded: Database, semantic: LazySemantic, text: str
) -> None:
    result = _search(embedded, text, SemanticExtra(index=semantic), viewer=None, workspace=LOCAL)
    assert result.page.total >= len(result.page.hits) >= 0
    for hit in result.page.hits:
        assert hit.paper.title  # real papers, nothing made up from the query


def test_without_vectors_it_ranks_as_keyword_search(encoder: Encoder, tmp_path: Path) -> None:
    # A fresh index over an archive whose vectors are not made yet: bm25's order, unchanged.
    url = f"sqlite:///{tmp_path}/empty.db"
    upgrade_url(url=url)
    database = Database(url=url)
    try:
        add_papers(database, corpus(*PROTEIN, *DISTRACTORS[:10]), workspace=LOCAL)
        keyword = _titles(database, "structure prediction", NO_SEMANTIC)
        index = LazySemantic(model=encoder.model, load=lambda: encoder)
        fresh = SemanticExtra(index=index)
        assert _titles(database, "structure prediction", fresh) == keyword
        # And it says so (--explain): keyword, because nothing has a vector, not "hybrid".
        result = _search(database, "structure prediction", fresh, viewer=None, workspace=LOCAL)
        assert (result.engine, result.why) == ("keyword", words.NO_VECTORS)
        assert "paperclub embed" in result.why and not result.explained
        assert not index.ready()  # no vector anywhere: the model was not even loaded
    finally:
        database.dispose()


def test_a_workspace_without_vectors_ranks_by_keyword_though_another_has_them(
    encoder: Encoder, semantic: LazySemantic, tmp_path: Path
) -> None:
    url = f"sqlite:///{tmp_path}/two.db"
    upgrade_url(url=url)
    database = Database(url=url)
    try:
        add_papers(database, corpus(*PROTEIN), workspace=OTHER)
        assert embed_all(database, semantic) == len(PROTEIN)
        add_papers(database, corpus(*DISTRACTORS[:10]), workspace=LOCAL)  # not embedded yet
        extra = SemanticExtra(index=semantic)
        keyword = _titles(database, "neural segmentation", NO_SEMANTIC)
        assert keyword and _titles(database, "neural segmentation", extra) == keyword
        result = _search(database, "neural segmentation", extra, viewer=None, workspace=LOCAL)
        assert (result.engine, result.why) == ("keyword", words.NO_VECTORS)
        there = _search(database, PARAPHRASE, extra, viewer=None, workspace=OTHER)
        assert there.engine == "hybrid"  # the workspace with vectors still fuses
    finally:
        database.dispose()


PUBLIC = ChannelKey(platform="slack", workspace="T1", channel="C1")
SECRET = ChannelKey(platform="slack", workspace="T1", channel="G2")
OTHER = WorkspaceKey(platform="slack", id="T9")


def test_meaning_keeps_private_channels_and_workspaces_apart(
    any_database: Database, semantic: LazySemantic
) -> None:
    with any_database() as store:
        store.save_channel(key=PUBLIC, schedule=WEEKDAYS, private=False)
        secret = store.save_channel(key=SECRET, schedule=WEEKDAYS, private=True)
    add_papers(any_database, corpus(*DISTRACTORS[:8]), workspace=PUBLIC.workspace_key)
    add_papers(any_database, corpus("b130"), workspace=OTHER)
    # The secret channel's own queue holds a protein paper.
    from bot.services.adding import add  # the real /paperclub add, in the private channel

    class NoLookup:
        """Titles need no look-up."""

        def by_arxiv_id(self, *, arxiv_id: str) -> None:
            """Nothing."""

        def by_doi(self, *, doi: str) -> None:
            """Nothing."""

    assert secret.private
    paper = corpus("b138")[0]
    extra = SemanticExtra(index=semantic)
    add(
        uow=any_database,
        lookup=NoLookup(),
        text=paper["title"],
        channel=SECRET,
        user="U1",
        now=NOW,
        semantic_extra=extra,
    )
    embed_all(any_database, semantic)
    seen_here = _search(any_database, PARAPHRASE, extra, viewer=PUBLIC)
    titles = {hit.paper.title for hit in seen_here.page.hits}
    assert seen_here.engine == "hybrid"
    assert paper["title"] not in titles  # queued for a private channel: not for this one
    assert corpus("b130")[0]["title"] not in titles  # another workspace's paper
    seen_there = _search(any_database, PARAPHRASE, extra, viewer=SECRET)
    assert paper["title"] in {hit.paper.title for hit in seen_there.page.hits}


def test_an_identifier_stays_exact(any_database: Database, semantic: LazySemantic) -> None:
    from bot.domain import PaperDraft
    from bot.services import importing

    drafts = [
        PaperDraft(
            title="Pipeline bubbles, measured",
            abstract="We time pipeline bubbles.",
            arxiv_id="2104.04473",
        ),
        PaperDraft(title="Pipeline bubbles, removed", abstract="We remove pipeline bubbles."),
    ]
    importing.import_drafts(uow=any_database, drafts=drafts, now=NOW, workspace=LOCAL)
    embed_all(any_database, semantic)
    extra = SemanticExtra(index=semantic)
    result = _search(any_database, "2104.04473", extra, viewer=None, workspace=LOCAL)
    # An id is matched as keyword search matches it (the full text holds no ids, so nothing);
    # meaning would have offered the other pipeline paper as "close" to the digits.
    assert result.engine == "keyword" and result.page.hits == ()
    assert "matched exactly" in result.why


def test_a_misspelt_author_leads_what_meaning_finds(
    embedded: Database, semantic: LazySemantic
) -> None:
    """Vectors carry no authors: the forgiven name's paper comes first, neighbours follow."""
    extra = SemanticExtra(index=semantic)
    result = _search(embedded, "Oyamda", extra, viewer=None, workspace=LOCAL)
    first = [hit.paper.title for hit in result.page.hits]
    assert first[0] == corpus("b138")[0]["title"] and result.engine == "hybrid"
    assert "close to “oyamda”" in result.notes[-1]
    later = _titles(embedded, "Oyamda", extra, limit=5, offset=1)
    assert later[: len(first) - 1] == first[1:] and first[0] not in later


def test_a_fully_misspelt_query_is_matched_by_meaning_and_says_so(
    embedded: Database, semantic: LazySemantic
) -> None:
    """No paper has the words; the fixed floor dropped every neighbour and answered nothing.
    The floor adapts: the neighbours near the best one are shown, and the page says why."""
    extra = SemanticExtra(index=semantic)
    typed = "thre dimensionl protien"  # its best neighbour scores 0.19: under FLOOR
    assert _titles(embedded, typed, NO_SEMANTIC) == []  # keywords find nothing
    result = _search(embedded, typed, extra, viewer=None, workspace=LOCAL)
    assert result.page.hits and result.page.hits[0].paper.title in PROTEIN_TITLES
    assert words.BY_MEANING in result.notes
    # A query whose words a paper has keeps the fixed floor and no such note.
    plain = _search(embedded, "protein structure", extra, viewer=None, workspace=LOCAL)
    assert words.BY_MEANING not in plain.notes


def test_the_floor_adapts_only_when_keywords_fail() -> None:
    assert search.floor_for(best=0.9, keywords_hold=True) == search.FLOOR
    assert search.floor_for(best=0.22, keywords_hold=False) == pytest.approx(0.14)
    assert search.floor_for(best=0.15, keywords_hold=False) == search.LOWEST
    assert search.floor_for(best=0.9, keywords_hold=False) == search.FLOOR


def test_a_fully_misspelt_query_is_corrected_before_meaning_answers_alone(
    embedded: Database, semantic: LazySemantic
) -> None:
    """Meaning fills the misspelt query's page, but no paper matched its keywords: the spelling
    is tried, and the corrected query, whose words the papers have, answers instead, saying
    what was typed (the page found by meaning alone ranked the right paper lower)."""
    result = forgiving_search(
        uow=embedded,
        text="protien structre",
        viewer=None,
        semantic_extra=SemanticExtra(index=semantic),
        telemetry=Telemetry(),
        workspace=LOCAL,
    )
    assert (result.typed, result.text) == ("protien structre", "protein structure")
    assert result.every_word and words.BY_MEANING not in result.notes
    assert result.page.hits[0].paper.title in PROTEIN_TITLES


def test_a_misspelt_name_is_not_corrected_into_a_word_of_the_papers(
    semantic: LazySemantic, tmp_path: Path
) -> None:
    """ "Marsch" is one letter from the author Marsh and one from the word "march": the name
    matched, so the page is hers and the spelling is left alone (counted as found by meaning
    alone, the page was "corrected" into the march papers)."""
    url = f"sqlite:///{tmp_path / 'club.db'}"
    upgrade_url(url=url)
    database = Database(url=url)
    try:
        papers = [
            {
                "title": "Tidal mixing in shallow seas",
                "abstract": "Currents.",
                "authors": ["Ada Marsh"],
            },
            {"title": "The march of glaciers", "abstract": "Ice moves.", "authors": ["Bo Lund"]},
            {"title": "Glaciers in march", "abstract": "Spring ice.", "authors": ["Cy Dahl"]},
        ]
        add_papers(database, papers, workspace=LOCAL)
        embed_all(database, semantic)
        result = forgiving_search(
            uow=database,
            text="Marsch",
            viewer=None,
            semantic_extra=SemanticExtra(index=semantic),
            telemetry=Telemetry(),
            workspace=LOCAL,
        )
    finally:
        database.dispose()
    assert not result.typed
    assert result.page.hits[0].paper.title == "Tidal mixing in shallow seas"
