"""A surname tens of thousands of authors share: names forgiven finds them on SQLite and
PostgreSQL however many names hold it (more than a statement may bind one per value:
PostgreSQL 65,535 parameters, SQLite 32,766 in its default build), and judges only the names
the searching workspace's papers hold."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from sqlalchemy import insert, select, text

from bot.db.database import Database
from bot.db.schema import PaperRow
from bot.db.search_steps import SearchSteps
from bot.db.store import SqlStore
from bot.domain import PaperDraft, WorkspaceKey
from bot.search_query import parse_query
from bot.services.importing import import_drafts
from bot.services.name_lookup import named_papers
from bot.services.name_match import MAX_PAPERS, fold, forgiven, person_words
from tests.services.conftest import key
from tests.services.support import follow_key

NOW = datetime(2026, 1, 1, tzinfo=UTC)
HOME, AWAY = key("C1"), key("C9", workspace="T9")
NAMES = 70_000  # "Given<n> Nguyen": distinct names, folded alike to "given nguyen"
PER_PAPER = 200
SQLITE_DEFAULT_VARIABLES = 32_766  # SQLITE_MAX_VARIABLE_NUMBER of SQLite's own build (3.32+)


def _steps(store: SqlStore, workspace: WorkspaceKey) -> SearchSteps:
    """A search of `workspace` in steps, as names forgiven runs it."""
    run = store.search_run(query=parse_query(text="x"), viewer=None, workspace=workspace)
    assert isinstance(run, SearchSteps)
    return run


def _scan(store: SqlStore, workspace: WorkspaceKey) -> list[tuple[int, str]]:
    """Every (paper id, author) of the workspace: the rule's input (name_match.forgiven)."""
    ws = _steps(store, workspace).run.scope.workspace_id
    rows = store.session.execute(
        select(PaperRow.id, PaperRow.authors).where(PaperRow.workspace_id == ws)
    )
    return [(paper_id, author) for paper_id, authors in rows for author in authors or ()]


def _as_sqlite_builds_do(store: SqlStore) -> None:
    """SQLite's default bind limit on this connection (Debian's build raises it to 250,000)."""
    if store.session.get_bind().dialect.name == "sqlite":
        raw = store.session.connection().connection.driver_connection
        assert isinstance(raw, sqlite3.Connection)
        raw.setlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER, SQLITE_DEFAULT_VARIABLES)


# The crowd's folded words, written by SQL: fold_names would write the same two a name
# (checked in the test), but on PostgreSQL folding 70,000 names one by one takes ~9 s.
_CROWD_WORDS = (
    "INSERT INTO author_words (word, name_id) SELECT w.word, n.id FROM author_names AS n, "
    "(SELECT 'given' AS word UNION ALL SELECT 'nguyen') AS w WHERE n.folded = false"
)
_CROWD_FOLDED = "UPDATE author_names SET folded = true WHERE folded = false"


@pytest.fixture
def crowded(any_database: Database) -> Iterator[Database]:
    """HOME's papers name NAMES Nguyens, PER_PAPER a paper, and "Given Nguyen" (imported, so
    the index holds both words' grams); AWAY's one paper names one Nguyen."""
    for channel, author in ((HOME, "Given Nguyen"), (AWAY, "Wei Nguyen")):
        follow_key(any_database, channel)
        drafts = [PaperDraft(title=f"By {author}", abstract="a", authors=(author,))]
        import_drafts(uow=any_database, drafts=drafts, now=NOW, workspace=channel.workspace_key)
    with any_database() as store:
        home = store.session.scalar(
            select(PaperRow.workspace_id).where(PaperRow.title.like("%Given%"))
        )
        rows = [
            {
                "workspace_id": home,
                "title": f"Paper {first}",
                "authors": [f"Given{n} Nguyen" for n in range(first, first + PER_PAPER)],
                "abstract": "a",
                "fingerprint": f"crowd{first}",
                "source": "test",
                "added_at": NOW,
                "position": 2 + first,
                "status": "queued",
                "title_derived": False,
            }
            for first in range(0, NAMES, PER_PAPER)
        ]
        store.session.execute(insert(PaperRow), rows)  # the triggers add and link the names
        store.session.execute(text(_CROWD_WORDS))
        store.session.execute(text(_CROWD_FOLDED))
    yield any_database


def test_a_surname_of_more_names_than_binds_is_found(crowded: Database) -> None:
    with crowded(write=False) as store:
        _as_sqlite_builds_do(store)
        assert fold(text="Given69999 Nguyen") == ("given", "nguyen")  # as _CROWD_WORDS has it
        pairs = _scan(store, HOME.workspace_key)
        for text in ("nguyem", "Given Nguyen", "G. Nguyen"):
            typed = person_words(text=text)
            want = forgiven(typed=typed, authors=pairs)
            assert len(want) == MAX_PAPERS, text  # every paper names a Nguyen: the newest
            assert named_papers(run=_steps(store, HOME.workspace_key), typed=typed) == want


def test_only_the_workspace_s_names_are_judged(crowded: Database) -> None:
    with crowded(write=False) as store:
        _as_sqlite_builds_do(store)
        away = _steps(store, AWAY.workspace_key)
        # HOME's 70,000 Nguyens hold the word too: SQL leaves them out, Python never sees them.
        assert away.author_names(words=[{"nguyen"}]) == [
            (name_id, "Wei Nguyen") for name_id, _ in away.author_names(words=[{"nguyen"}])
        ]
        assert len(away.author_names(words=[{"nguyen"}])) == 1
        (paper,) = named_papers(run=away, typed=person_words(text="nguyem"))
        home = _steps(store, HOME.workspace_key)
        assert len(home.author_names(words=[{"nguyen"}])) == NAMES + 1  # and "Given Nguyen"
        assert paper not in named_papers(run=home, typed=person_words(text="nguyem"))
