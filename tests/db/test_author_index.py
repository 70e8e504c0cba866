"""The authors' index (migration 0017) answers names forgiven exactly as a scan of every
paper's authors does (name_match.forgiven), on SQLite and PostgreSQL: through imports, an
authors' update the write path never folded, deletes, other workspaces and hostile names."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from sqlalchemy import delete, func, select, update

from bot.db.author_index import fold_names
from bot.db.database import Database
from bot.db.schema import PaperRow
from bot.db.schema_authors import MAX_NAME, AuthorNameRow, PaperAuthorRow
from bot.db.search_steps import SearchSteps
from bot.db.store import SqlStore
from bot.domain import PaperDraft, WorkspaceKey
from bot.search_query import parse_query
from bot.services.importing import import_drafts
from bot.services.name_lookup import named_papers
from bot.services.name_match import forgiven, person_words
from tests.services.conftest import key
from tests.services.support import HOSTILE, follow_key

NOW = datetime(2026, 1, 1, tzinfo=UTC)
HOME, AWAY = key("C1"), key("C9", workspace="T9")
NAMES = (
    ("Anna Halverson", "Sebastián Ortega"),
    ("Anna Halvorsen",),
    ("John Smith", "Li Wu"),
    ("Adam Smith", "J. Smith"),
    ("Eve Smyth", "Lu Chen", "Chen Lu"),
    ("Jean-Pierre Dupont", "Siobhán O'Brien"),
    ("Jean Pierre Dupond",),
    ("Zoë Kowalczyk", "Иван Иванов"),
    ("Ortega, Sebastian", "S. Ortega"),
    ("Aaaaaaaaaa Bbbbbbbbbb",),
    ("Anna Halverson",),
    (),
)
TYPED = (
    "halvorson",
    "anna halverson",
    "A. Halvorsen",
    "Sebastian Ortega",
    "ortega sebastian",
    "S. Ortega",
    "J. Smith",
    "John Smith",
    "Smith",
    "smyth",
    "Lu Chen",
    "chen",
    "Li",
    "obrien",
    "Siobhan O Brien",
    "J P Dupont",
    "jean pierre dupond",
    "dupomt",
    "kowalcyzk",
    "zoe",
    "иванов",
    "иванав",
    "aaaaaaaaab",
    "J. S.",
    "Smith Smith",
    "channel",
)


def _steps(store: SqlStore, workspace: WorkspaceKey) -> SearchSteps:
    """A search of `workspace` in steps, as names forgiven runs it."""
    run = store.search_run(query=parse_query(text="x"), viewer=None, workspace=workspace)
    assert isinstance(run, SearchSteps)
    return run


def _scan(store: SqlStore, workspace: WorkspaceKey) -> list[tuple[int, str]]:
    """Every (paper id, author) of the workspace: what names forgiven read before the index."""
    ws = _steps(store, workspace).run.scope.workspace_id  # the row id the search reads
    rows = store.session.execute(
        select(PaperRow.id, PaperRow.authors).where(PaperRow.workspace_id == ws)
    )
    return [(paper_id, author) for paper_id, authors in rows for author in authors or ()]


def _same_answers(database: Database) -> None:
    """Every typed name finds, in both workspaces, what the scan finds."""
    with database(write=False) as store:
        for workspace in (HOME.workspace_key, AWAY.workspace_key):
            pairs = _scan(store, workspace)
            assert pairs, workspace
            for text in TYPED:
                typed = person_words(text=text)
                want = forgiven(typed=typed, authors=pairs)
                assert named_papers(run=_steps(store, workspace), typed=typed) == want, text


@pytest.fixture
def archive(any_database: Database) -> Iterator[Database]:
    """Two workspaces holding the names above, one paper each."""
    for channel in (HOME, AWAY):
        follow_key(any_database, channel)
        drafts = [
            PaperDraft(title=f"Paper {i} of {channel.workspace}", abstract="a", authors=names)
            for i, names in enumerate(NAMES)
        ]
        import_drafts(uow=any_database, drafts=drafts, now=NOW, workspace=channel.workspace_key)
    yield any_database


def test_the_index_answers_as_the_scan_does(archive: Database) -> None:
    with archive(write=False) as store:
        unfolded = store.session.scalar(
            select(func.count()).select_from(AuthorNameRow).where(AuthorNameRow.folded.is_(False))
        )
        assert unfolded == 0  # the import folded what it added
        found = named_papers(
            run=_steps(store, HOME.workspace_key), typed=person_words(text="halvorson")
        )
        assert len(found) == 3  # both Halversons and the Halvorsen, this workspace's only
    _same_answers(archive)


def test_names_written_elsewhere_are_found_before_they_are_folded(archive: Database) -> None:
    with archive() as store:
        first = store.session.scalars(select(PaperRow.id).order_by(PaperRow.id)).first()
        store.session.execute(
            update(PaperRow).where(PaperRow.id == first).values(authors=["Þórdís Ægisdóttir"])
        )
        last = store.session.scalars(select(PaperRow.id).order_by(PaperRow.id.desc())).first()
        store.session.execute(delete(PaperRow).where(PaperRow.id == last))
    with archive(write=False) as store:
        steps = _steps(store, HOME.workspace_key)
        assert named_papers(run=steps, typed=person_words(text="thordis aegisdottir")) == []
        assert named_papers(run=steps, typed=person_words(text="þórdis ægisdotir")) == [first]
        # The update took the paper's old names away.
        assert first not in named_papers(run=steps, typed=person_words(text="halverson"))
    _same_answers(archive)
    with archive() as store:
        assert fold_names(connection=store.session.connection()) == 1
    _same_answers(archive)


def test_hostile_names_are_stored_as_text_and_too_long_ones_not_indexed(
    archive: Database,
) -> None:
    drafts = [PaperDraft(title="Hostile", abstract="a", authors=(*HOSTILE, "Ana Lindqvist"))]
    import_drafts(uow=archive, drafts=drafts, now=NOW, workspace=HOME.workspace_key)
    with archive(write=False) as store:
        names = set(store.session.scalars(select(AuthorNameRow.name)))
        assert set(HOSTILE[:2]) <= names and HOSTILE[2] not in names
        assert max(len(name) for name in names) <= MAX_NAME
        links = store.session.scalar(select(func.count()).select_from(PaperAuthorRow))
        assert links == sum(len(set(names)) for names in NAMES) * 2 + 3
        steps = _steps(store, HOME.workspace_key)
        (hostile,) = named_papers(run=steps, typed=person_words(text="Ana Lindqvst"))
        assert named_papers(run=steps, typed=person_words(text="channel")) == [hostile]
