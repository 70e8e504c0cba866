"""Two imports adding the same new author names in opposite orders, at once, on PostgreSQL:
both go in, neither is chosen as a deadlock's victim (migration 0017 adds an INSERT's names
once for all its rows, sorted). author_names is shared by every workspace, and a writer
adding a name another uncommitted writer added waits for it."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
from sqlalchemy import Engine, create_engine, text

from tests.lock_waits import waiting_on_locks

pytestmark = pytest.mark.postgres

WAIT = 30.0  # seconds a thread may take; each wait below ends on a signal, well before
PAPERS = (
    "INSERT INTO papers (workspace_id, title, authors, abstract, fingerprint, source, added_at, "
    "position, status, title_derived) VALUES {rows} ON CONFLICT DO NOTHING"
)
ROW = "(1, 'T', '{authors}', 'a', '{fingerprint}', 's', '2026-01-05 08:00:00', 1, 'queued', false)"
X, Y = '["Xavier Alpha"]', '["Yolanda Beta"]'


def _papers(*rows: tuple[str, str]) -> str:
    """One INSERT of papers (authors JSON, fingerprint), as an import writes its batch."""
    return PAPERS.format(
        rows=", ".join(ROW.format(authors=authors, fingerprint=fp) for authors, fp in rows)
    )


@pytest.fixture
def engine(postgres_url: str) -> Iterator[Engine]:
    """The test database's engine, with the one workspace the papers belong to."""
    made = create_engine(postgres_url)
    with made.begin() as connection:
        connection.execute(text("INSERT INTO workspaces (id, platform, team) VALUES (1, 's', 'T')"))
    yield made
    made.dispose()


def test_two_imports_adding_names_in_opposite_orders_both_go_in(engine: Engine) -> None:
    errors: list[str] = []

    def write(statement: str) -> None:
        """One import's batch, in its own transaction."""
        try:
            with engine.begin() as connection:
                connection.execute(text(statement))
        except Exception as error:  # the test reports what PostgreSQL said
            errors.append(str(error).splitlines()[0])

    with engine.connect() as holder, engine.connect() as watcher:
        # Each import's second paper waits on this uncommitted one of the same key: by then
        # its first paper is in, as a row-by-row trigger would have added X (resp. Y).
        holder.execute(text(_papers(("[]", "p2"), ("[]", "q2"))))
        first = threading.Thread(target=write, args=(_papers((X, "p1"), (Y, "p2")),))
        second = threading.Thread(target=write, args=(_papers((Y, "q1"), (X, "q2")),))
        threads = [first, second]
        first.start()
        assert waiting_on_locks(watcher=watcher, count=1, threads=[first]), errors
        second.start()
        assert waiting_on_locks(watcher=watcher, count=2, threads=threads), errors
        holder.rollback()  # both go on: X then Y for one, Y then X for the other if by row
        for thread in threads:
            thread.join(WAIT)
    assert not errors
    with engine.connect() as connection:
        links = connection.execute(
            text(
                "SELECT n.name, p.fingerprint FROM paper_authors pa "
                "JOIN author_names n ON n.id = pa.name_id JOIN papers p ON p.id = pa.paper_id "
                "ORDER BY p.fingerprint"
            )
        ).all()
    assert [tuple(link) for link in links] == [
        ("Xavier Alpha", "p1"),
        ("Yolanda Beta", "p2"),
        ("Yolanda Beta", "q1"),
        ("Xavier Alpha", "q2"),
    ]
