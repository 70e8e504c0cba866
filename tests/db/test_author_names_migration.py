"""Revision 0017 indexes the authors an archive already holds (names folded, each paper linked
to its names), its triggers keep the links as papers come and go, and it goes back down
leaving 0016's schema, on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import create_engine, inspect, text

from bot.db.migrate import alembic_config
from tests.conftest import throwaway_postgres

T0 = "2026-01-05 08:00:00"
PAPER = (
    "INSERT INTO papers (id, workspace_id, title, authors, abstract, fingerprint, source, "
    "added_at, position, status, title_derived) VALUES ({id}, 1, 'T', '{authors}', 'a', "
    "'f{id}', 's', '" + T0 + "', {id}, 'queued', false)"
)
AT_0016 = [
    "INSERT INTO workspaces (id, platform, team) VALUES (1, 'slack', 'T1')",
    PAPER.format(id=1, authors='["Sebastián Ortega", "Anna Halverson"]'),
    PAPER.format(id=2, authors='["Anna Halverson", "Anna Halverson"]'),
    PAPER.format(id=3, authors="[]"),
    PAPER.format(id=4, authors='["' + "x" * 300 + '", 7]'),
]
LINKS = (
    "SELECT n.name, pa.paper_id FROM paper_authors pa JOIN author_names n ON n.id = pa.name_id "
    "ORDER BY pa.paper_id, n.name"
)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def blank(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database of the test's own."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'old.db'}"
        return
    server = str(request.getfixturevalue("postgres_server"))
    with throwaway_postgres(server=server, prefix="paperclub_m17") as url:
        yield url


def _run(url: str, *statements: str) -> list[tuple[object, ...]]:
    """Run the statements in one transaction; the last one's rows."""
    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            rows: list[tuple[object, ...]] = []
            for statement in statements:
                result = conn.execute(text(statement))
                rows = [tuple(row) for row in result] if result.returns_rows else []
            return rows
    finally:
        engine.dispose()


def test_existing_authors_are_indexed_and_kept_by_the_triggers(blank: str) -> None:
    config = alembic_config(url=blank)
    command.upgrade(config, "0016")
    _run(blank, *AT_0016)
    command.upgrade(config, "0017")
    linked = [
        ("Anna Halverson", 1),
        ("Sebastián Ortega", 1),
        ("Anna Halverson", 2),
    ]
    assert _run(blank, LINKS) == linked  # the 300-character "name" and the number: not names
    words = "SELECT w.word, n.name FROM author_words w JOIN author_names n ON n.id = w.name_id"
    assert set(_run(blank, words)) == {
        ("anna", "Anna Halverson"),
        ("halverson", "Anna Halverson"),
        ("sebastian", "Sebastián Ortega"),
        ("ortega", "Sebastián Ortega"),
    }
    assert _run(blank, "SELECT count(*) FROM author_names WHERE NOT folded") == [(0,)]
    grams = "SELECT gram FROM author_grams WHERE word = 'anna' ORDER BY gram"
    assert [gram for (gram,) in _run(blank, grams)] == ["  a", " an", "a  ", "ann", "na ", "nna"]
    # Inserted, updated, deleted papers: the links follow; a new name waits to be folded.
    _run(
        blank,
        PAPER.format(id=5, authors='["Li Wu"]'),
        """UPDATE papers SET authors = '["Li Wu", "Sebastián Ortega"]' WHERE id = 2""",
        "DELETE FROM papers WHERE id = 1",
    )
    assert _run(blank, LINKS) == [("Li Wu", 2), ("Sebastián Ortega", 2), ("Li Wu", 5)]
    assert _run(blank, "SELECT name FROM author_names WHERE NOT folded") == [("Li Wu",)]
    command.downgrade(config, "0016")
    engine = create_engine(blank)
    try:
        tables = set(inspect(engine).get_table_names())
    finally:
        engine.dispose()
    assert not {"author_names", "paper_authors", "author_words", "author_grams"} & tables
    _run(blank, PAPER.format(id=6, authors='["Eve Smyth"]'))  # no trigger left behind
    command.upgrade(config, "head")
    assert ("Eve Smyth", 6) in _run(blank, LINKS)
