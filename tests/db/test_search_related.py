"""Related papers: those with every word rank first, then those with some of the words (every
phrase kept, -words and filters kept), each part best first, counted in the total, and paged
without gaps or repeats; on SQLite and PostgreSQL alike."""

from __future__ import annotations

from datetime import date

from bot.db.database import Database
from bot.domain import PaperDraft, SearchPage
from bot.services.importing import import_drafts
from tests.db.test_search import NOW, TEAM, comment, find, post

PAPERS = {
    "both": PaperDraft(
        title="Gossip averaging for decentralized training",
        abstract="Workers gossip with peers; averaging their models converges under churn.",
    ),
    "weak": PaperDraft(
        title="Federated learning on phones",
        abstract="Clients rarely gossip, and averaging happens on the server in decentralized "
        "training rounds.",
    ),
    "gossip": PaperDraft(title="Gossip protocols", abstract="We study epidemics in networks."),
    "averaging": PaperDraft(
        title="Stochastic weight methods", abstract="Model averaging smooths the loss surface."
    ),
    "phrase": PaperDraft(
        title="Decentralized training without servers",
        abstract="Peers gossip gradients instead of parameters.",
    ),
    "unrelated": PaperDraft(title="Cardinality estimation", abstract="Sketches count things."),
    "thread": PaperDraft(title="Learning rate warmup", abstract="Warmup stabilises transformers."),
}


def _load(database: Database) -> dict[str, int]:
    """The papers above (one found by its thread, which says every word); ids by key."""
    import_drafts(uow=database, drafts=list(PAPERS.values()), now=NOW, workspace=TEAM)
    with database(write=False) as store:
        by_title = {p.title: p.id for p in store.papers_to_embed(model="-", limit=100)}
    ids = {key: by_title[draft.title] for key, draft in PAPERS.items()}
    said = post(database, ids["thread"], date(2026, 3, 2))
    comment(database, said, "U1", "reminds me of gossip averaging")
    return ids


def _keys(page: SearchPage, ids: dict[str, int]) -> list[str]:
    """The page's papers by key."""
    names = {paper_id: key for key, paper_id in ids.items()}
    return [names[hit.paper.id] for hit in page.hits]


def _paged(database: Database, text: str) -> tuple[list[int], set[int]]:
    """Every hit of a search two by two, and every total the pages stated."""
    ids: list[int] = []
    totals: set[int] = set()
    for offset in range(0, 40, 2):
        page = find(database, text, limit=2, offset=offset)
        totals.add(page.total)
        ids += [hit.paper.id for hit in page.hits]
    return ids, totals


def test_papers_with_every_word_first_then_related_ones(any_database: Database) -> None:
    ids = _load(any_database)
    page = find(any_database, "gossip averaging", limit=10)
    keys = _keys(page, ids)
    # Every word, in the text or a thread, first; then some of them; nothing without either.
    assert sorted(keys[:3]) == ["both", "thread", "weak"] and keys[0] == "both"
    assert sorted(keys[3:]) == ["averaging", "gossip", "phrase"]
    assert page.total == 6 and not page.relaxed
    # Each part best first; a related paper may weigh more than one with every word, and
    # still follows it (here the title's "Gossip" or the lone "averaging" outweighs `weak`).
    every, some = [h.score for h in page.hits[:3]], [h.score for h in page.hits[3:]]
    assert every == sorted(every, reverse=True) and some == sorted(some, reverse=True)
    assert max(some) > min(every)
    # The related papers' snippets highlight the word they have.
    for hit in page.hits:
        assert "gossip" in hit.snippet.lower() or "averag" in hit.snippet.lower(), hit.snippet


def test_related_papers_keep_phrases_exclusions_and_filters(any_database: Database) -> None:
    ids = _load(any_database)
    page = find(any_database, '"decentralized training" gossip averaging', limit=10)
    assert _keys(page, ids) == ["both", "weak", "phrase"] and page.total == 3
    page = find(any_database, "gossip averaging -epidemics -smooths", limit=10)
    assert sorted(_keys(page, ids)) == ["both", "phrase", "thread", "weak"] and page.total == 4
    page = find(any_database, "gossip averaging is:posted", limit=10)
    assert _keys(page, ids) == ["thread"] and page.total == 1
    # A first page within the papers with every word only counts the related ones, alike.
    for text in (
        "gossip averaging -epidemics -smooths",
        '"decentralized training" gossip averaging',
    ):
        assert find(any_database, text, limit=1).total == find(any_database, text, limit=10).total


def test_no_paper_with_every_word_is_still_relaxed(any_database: Database) -> None:
    ids = _load(any_database)
    page = find(any_database, "gossip zebra", limit=10)
    found = sorted(_keys(page, ids))
    assert page.relaxed and found == ["both", "gossip", "phrase", "thread", "weak"]
    assert page.total == 5


def test_pages_join_up_and_totals_are_what_can_be_paged(any_database: Database) -> None:
    _load(any_database)
    for text in ("gossip averaging", "decentralized gossip-averaging", "of the gossip"):
        whole = find(any_database, text, limit=40)
        paged, totals = _paged(any_database, text)
        assert paged == [hit.paper.id for hit in whole.hits], text
        assert totals == {len(paged)} == {whole.total}, text
        assert len(set(paged)) == len(paged)


def test_hostile_queries_match_as_their_words_do(any_database: Database) -> None:
    """Markup and mentions are words like any other: nothing in them reaches FTS or SQL as
    syntax, and the ranking is that of their words."""
    _load(any_database)
    plain = [hit.paper.id for hit in find(any_database, "gossip averaging", limit=10).hits]
    for text in (
        "<!channel> gossip* averaging^",
        '"gossip" OR averaging',
        "gossip NEAR(averaging)",
        "🦘 gossip — averaging",
    ):
        page = find(any_database, text, limit=10)
        assert page.total >= len(page.hits) > 0, text
        assert {hit.paper.id for hit in page.hits} >= set(plain[:3]), text
    huge = find(any_database, "gossip " + "x" * 10_000, limit=10)
    assert huge.relaxed and huge.total == 5
