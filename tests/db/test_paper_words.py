"""PostgreSQL's words for "did you mean" (migration 0018's paper_words, kept by a trigger) stay
equal to what ts_stat reads from the papers themselves, through imports, edits of titles and
abstracts, deletions and moves between workspaces; the store reads them per workspace."""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from sqlalchemy import create_engine, text

from bot.db.database import Database
from bot.domain import PaperDraft, WorkspaceKey
from bot.services import importing
from tests.lock_waits import waiting_on_locks

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


def test_two_edits_trading_words_wait_for_each_other_and_never_deadlock(
    postgres: Database, postgres_url: str
) -> None:
    """X goes "bbb ttt" -> "aaa ttt" while Y goes "aaa" -> "bbb", both queued behind a third
    writer holding "aaa": each edit takes its words in one sorted pass, so both wait for "aaa"
    and then finish (taking the old words, then the new, in two passes, they deadlocked)."""
    now = datetime(2026, 1, 1, tzinfo=UTC)
    drafts = [
        PaperDraft(title="bbb ttt", abstract="", origin="t:x"),
        PaperDraft(title="aaa", abstract="", origin="t:y"),
    ]
    importing.import_drafts(uow=postgres, drafts=drafts, now=now, workspace=ONE)
    engine = create_engine(postgres_url)
    failures: list[str] = []
    try:
        with engine.connect() as conn:
            ids = {str(t): int(i) for t, i in conn.execute(text("SELECT title, id FROM papers"))}

        def edit(paper_id: int, title: str) -> None:
            """Retitle one paper in a transaction of its own."""
            try:
                with engine.begin() as conn:
                    conn.execute(text("SET LOCAL lock_timeout = '30s'"))
                    conn.execute(
                        text("UPDATE papers SET title = :t WHERE id = :id"),
                        {"t": title, "id": paper_id},
                    )
            except Exception as exc:  # a deadlock or a timeout: the test's failure
                failures.append(str(exc).splitlines()[0])

        with engine.connect() as holder:
            holder.execute(text("SELECT 1 FROM paper_words WHERE word = 'aaa' FOR UPDATE"))
            writers = [
                threading.Thread(target=edit, args=(ids["bbb ttt"], "aaa ttt")),
                threading.Thread(target=edit, args=(ids["aaa"], "bbb")),
            ]
            for writer in writers:
                writer.start()
            with engine.connect() as watcher:
                assert waiting_on_locks(watcher=watcher, count=2, threads=writers), failures
            holder.commit()
        for writer in writers:
            writer.join(60)
    finally:
        engine.dispose()
    assert failures == []
    assert _kept(postgres) == _read(postgres)


def test_words_sort_by_code_point_whatever_the_databases_collation(postgres: Database) -> None:
    """The reader asks for a first letter's range: under a linguistic collation "{" sorts before
    "z" and "élan" outside ["é", "ê"), so the column is COLLATE "C"."""
    with postgres.engine.connect() as conn:
        collation = conn.execute(
            text(
                "SELECT collation_name FROM information_schema.columns"
                " WHERE table_name = 'paper_words' AND column_name = 'word'"
            )
        ).scalar()
    assert collation == "C"
    now = datetime(2026, 1, 1, tzinfo=UTC)
    draft = PaperDraft(title="Zebra élan", abstract="", origin="t:z")
    importing.import_drafts(uow=postgres, drafts=[draft], now=now, workspace=ONE)
    with postgres(write=False) as store:
        near = dict(store.words_near(words=["zebar", "élam"], workspace=ONE))
    assert near == {"zebra": 1, "élan": 1}
