"""PostgreSQL's words for "did you mean" (migration 0018's paper_words, kept by a trigger) stay
equal to what ts_stat reads from the papers themselves, through imports, edits of titles and
abstracts, deletions and moves between workspaces; the store reads them per workspace."""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from sqlalchemy import text

from bot.db.database import Database
from bot.domain import PaperDraft, WorkspaceKey
from bot.services import importing

pytestmark = pytest.mark.postgres

ONE = WorkspaceKey(platform="slack", id="T1")
TWO = WorkspaceKey(platform="slack", id="T2")
VOCABULARY = [
    "pipeline", "parallelism", "pipelines", "gaussian", "splatting", "café", "Ünïcode",
    "<!channel>", "x'); DROP TABLE papers; --", "🙂", "cardinality", "estimation", "the",
]  # fmt: skip
# What ts_stat reads: the oracle the kept table must equal, per workspace.
TS_STAT = (
    "SELECT word, ndoc FROM ts_stat('SELECT to_tsvector(''simple''::regconfig, "
    "coalesce(title, '''') || '' '' || coalesce(abstract, '''')) FROM papers "
    "WHERE workspace_id = ' || CAST(CAST(:ws AS integer) AS text))"
)


@pytest.fixture
def postgres(postgres_url: str) -> Iterator[Database]:
    """A migrated PostgreSQL archive of the test's own."""
    database = Database(url=postgres_url)
    yield database
    database.dispose()


def _sentence(rng: random.Random) -> str:
    """A few words of the vocabulary, some repeated."""
    return " ".join(rng.choice(VOCABULARY) for _ in range(rng.randint(1, 8)))


def _kept(database: Database) -> dict[int, dict[str, int]]:
    """paper_words, per workspace row id: word -> papers (counts of 0 left out)."""
    found: dict[int, dict[str, int]] = {}
    with database.engine.connect() as conn:
        for ws, word, papers in conn.execute(
            text("SELECT workspace_id, word, papers FROM paper_words WHERE papers > 0")
        ):
            found.setdefault(ws, {})[word] = papers
    return found


def _read(database: Database) -> dict[int, dict[str, int]]:
    """What ts_stat reads from the papers, per workspace row id."""
    found: dict[int, dict[str, int]] = {}
    with database.engine.connect() as conn:
        for (ws,) in conn.execute(text("SELECT id FROM workspaces")):
            rows = conn.execute(text(TS_STAT), {"ws": ws}).all()
            if rows:
                found[ws] = {word: ndoc for word, ndoc in rows}
    return found


def test_the_kept_words_equal_ts_stat_through_every_change(postgres: Database) -> None:
    rng = random.Random(34)
    now = datetime(2026, 1, 1, tzinfo=UTC)
    for workspace in (ONE, TWO):
        drafts = [
            PaperDraft(
                title=f"{_sentence(rng)} {n}", abstract=_sentence(rng), origin=f"t:{workspace}{n}"
            )
            for n in range(40)
        ]
        importing.import_drafts(uow=postgres, drafts=drafts, now=now, workspace=workspace)
    assert _kept(postgres) == _read(postgres)
    with postgres.engine.begin() as conn:
        ids = [row[0] for row in conn.execute(text("SELECT id FROM papers ORDER BY id"))]
        (two,) = conn.execute(text("SELECT id FROM workspaces WHERE team = 'T2'")).one()
        for paper_id in rng.sample(ids, 15):
            conn.execute(
                text("UPDATE papers SET title = :t, abstract = :a WHERE id = :id"),
                {
                    "t": _sentence(rng),
                    "a": _sentence(rng) if rng.random() < 0.7 else "",
                    "id": paper_id,
                },
            )
        for paper_id in rng.sample(ids, 5):
            conn.execute(
                text("UPDATE papers SET workspace_id = :ws WHERE id = :id"),
                {"ws": two, "id": paper_id},
            )
        conn.execute(text("DELETE FROM papers WHERE id = ANY(:ids)"), {"ids": rng.sample(ids, 8)})
    assert _kept(postgres) == _read(postgres)


def test_did_you_mean_reads_the_asking_workspaces_words(postgres: Database) -> None:
    now = datetime(2026, 1, 1, tzinfo=UTC)
    papers = {ONE: "Gaussian splatting at scale", TWO: "Gaussian process regression"}
    for workspace, title in papers.items():
        draft = PaperDraft(title=title, abstract="", origin=f"t:{workspace}")
        importing.import_drafts(uow=postgres, drafts=[draft], now=now, workspace=workspace)
    with postgres(write=False) as store:
        near = dict(store.words_near(words=["gausian", "spalting"], workspace=ONE))
        other = dict(store.words_near(words=["proces"], workspace=ONE))
        elsewhere = dict(store.words_near(words=["proces"], workspace=TWO))
    assert near == {"gaussian": 1, "splatting": 1}
    assert other == {}  # "process" is another workspace's word
    assert elsewhere == {"process": 1}
    with postgres.engine.begin() as conn:
        conn.execute(text("DELETE FROM papers WHERE title = 'Gaussian process regression'"))
    with postgres(write=False) as store:
        assert store.words_near(words=["proces"], workspace=TWO) == ()
