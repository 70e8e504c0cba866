"""Names forgiven: a typo, accents and initials in an author's name still find their papers,
below the exact matches, on SQLite and PostgreSQL; an unrelated short name finds nothing, and
hostile text stays text."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime

import pytest
from sqlalchemy import func, select

from bot.db.database import Database
from bot.db.schema import PaperRow
from bot.domain import PaperDraft, WorkspaceKey
from bot.services import search
from bot.services.embedding import NO_SEMANTIC
from bot.services.importing import import_drafts
from bot.services.search import SearchResult
from bot.services.telemetry import Telemetry
from tests.services.conftest import key
from tests.services.support import HOSTILE, follow_key, plain

C1 = key("C1")
NOW = datetime(2026, 1, 1, tzinfo=UTC)
PEOPLE = {
    "Wombat burrows": ("Anna Halverson",),
    "Quokka smiles": ("Sebastián Ortega", "Li Wu"),
    "Numbat diets": ("John Smith",),
    "Bilby ears": ("Adam Smith",),
    "Dingo packs": ("Lu Chen",),
    "Possum nights": ("Eve Smyth",),
}


def _drafts(people: Mapping[str, tuple[str, ...]]) -> list[PaperDraft]:
    """One paper a title, about animals (no author's name in its words)."""
    return [
        PaperDraft(title=title, abstract=f"How {title.lower()} vary.", authors=authors)
        for title, authors in people.items()
    ]


@pytest.fixture
def club(any_database: Database) -> Database:
    """C1's workspace holds the papers above; another workspace has its own Halverson."""
    follow_key(any_database, C1)
    import_drafts(uow=any_database, drafts=_drafts(PEOPLE), now=NOW, workspace=C1.workspace_key)
    follow_key(any_database, key("C9", workspace="T9"))
    hidden = {"Echidna spines": ("Anna Halverson",)}
    import_drafts(
        uow=any_database,
        drafts=_drafts(hidden),
        now=NOW,
        workspace=WorkspaceKey(platform="slack", id="T9"),
    )
    return any_database


def find(database: Database, text: str, *, offset: int = 0, limit: int = 5) -> SearchResult:
    """Search as C1 sees its workspace, keywords alone."""
    return search.search(
        uow=database,
        semantic_extra=NO_SEMANTIC,
        telemetry=Telemetry(),
        text=text,
        viewer=C1,
        offset=offset,
        limit=limit,
    )


def titles(result: SearchResult) -> list[str]:
    """The page's titles in order."""
    return [hit.paper.title for hit in result.page.hits]


def test_a_typo_in_a_name_finds_the_author_and_says_so(club: Database) -> None:
    for text in ("halvorson", "author:halvorson", "Anna Halvorson", "A. Halvorsen"):
        found = find(club, text)
        # The other workspace's Halverson stays there.
        assert titles(found) == ["Wombat burrows"] and found.page.total == 1, text
        assert found.notes[-1].startswith("Also papers by authors whose names are close to")
        assert "close to" in plain(search.page_message(result=found))


def test_accents_and_initials_are_forgiven(club: Database) -> None:
    for text in ("Sebastian Ortega", "ortega, sebastian", "S. Ortega", 'author:"sebastian"'):
        assert titles(find(club, text)) == ["Quokka smiles"], text
    # "J." is not in any paper: some words matched, and the name puts John Smith first.
    initials = find(club, "J. Smith")
    assert titles(initials)[0] == "Numbat diets"
    assert set(titles(initials)) >= {"Numbat diets", "Bilby ears"}
    assert not initials.page.relaxed


def test_forgiven_names_rank_below_exact_matches_and_page(club: Database) -> None:
    found = find(club, "Smith")
    assert set(titles(found)[:2]) == {"Numbat diets", "Bilby ears"}
    assert titles(found)[2:] == ["Possum nights"] and found.page.total == 3
    last = find(club, "Smith", offset=2, limit=1)
    assert titles(last) == ["Possum nights"] and last.next_offset is None
    assert titles(find(club, "Smith", limit=2)) == titles(found)[:2]


def test_no_false_friends(club: Database) -> None:
    # Short names are taken as typed: "Lo" is neither "Lu" nor "Li"; initials alone name no one.
    for text in ("Lo", "Wang", "J. S.", "author:Chan", "wombats", "burrows"):
        found = find(club, text)
        assert not any("close to" in note for note in found.notes), text
    assert find(club, "Lo").page.total == 0
    # Words that name nobody change nothing; a name with other words is not a name.
    assert titles(find(club, "quokka")) == ["Quokka smiles"]
    assert find(club, "halvorson quokka smiles").page.total == 1
    assert not find(club, "Li").notes  # Li Wu is found as typed: nothing to forgive


def test_hostile_names_stay_text(club: Database) -> None:
    for text in (
        *HOSTILE,
        "halvorson'); DROP TABLE papers; --",
        'author:"<!channel> halvorson"',
        "<@U999> Smyth",
        "%halv_rson%",
        "\u202ehalvorson\u0000",
    ):
        found = find(club, text)
        said = plain(search.page_message(result=found))
        assert "<!channel>" not in found.notes[-1:] and found.page.total >= 0, text
        assert all(note.isprintable() for note in found.notes), text
        assert said
    assert titles(find(club, "halvorson'); --")) == ["Wombat burrows"]
    assert titles(find(club, "\u202ehalvorson\u0000")) == ["Wombat burrows"]
    with club(write=False) as store:
        assert store.session.scalar(select(func.count()).select_from(PaperRow)) == 7
