"""Revision 0007 moves one archive into workspaces: each paper to the workspace that queued or
first posted it, a paper posted in two workspaces copied, full-text search kept."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import create_engine, text

from bot.db.migrate import alembic_config
from tests.conftest import throwaway_postgres

T0 = "2026-01-05 08:00:00"
ROWS_AT_0006 = [
    "INSERT INTO channels (id, platform, workspace, external_id, private, post_time, timezone, "
    "weekdays, paused, empty_notice_sent) VALUES "
    "(1, 'slack', 'T1', 'C1', false, '09:00', 'UTC', 'mon-fri', false, false), "
    "(2, 'discord', 'G1', 'D1', false, '09:00', 'UTC', 'mon-fri', false, false)",
    "INSERT INTO papers (id, title, authors, abstract, arxiv_id, fingerprint, source, added_at, "
    "position, status, queue_channel_id, title_derived) VALUES "
    f"(1, 'Straggler mitigation', '[]', 'slow workers', '2401.00001', 'f1', 's', '{T0}', 1, "
    "'posted', NULL, false), "
    f"(2, 'Discord only', '[]', 'queued for the guild', NULL, 'f2', 's', '{T0}', 2, 'queued', "
    "2, false), "
    f"(3, 'Never posted', '[]', 'shared list', NULL, 'f3', 's', '{T0}', 3, 'queued', NULL, "
    "false)",
    "INSERT INTO posts (id, paper_id, channel_id, local_date, state, message_id, created_at) "
    f"VALUES (1, 1, 1, '2026-01-05', 'posted', '1.1', '{T0}'), "
    f"(2, 1, 2, '2026-01-06', 'posted', '2.1', '{T0}')",
    "INSERT INTO comments (id, post_id, channel_id, user_id, message_id, text, created_at, "
    f"deleted) VALUES (1, 1, 1, 'U1', '1.2', 'gradient compression', '{T0}', false), "
    f"(2, 2, 2, 'D9', '2.2', 'guild says wombat', '{T0}', false)",
    "INSERT INTO votes (post_id, user_id, value, source, updated_at) VALUES "
    f"(1, 'U1', 1, 'button', '{T0}'), (2, 'D9', -1, 'button', '{T0}')",
]


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def blank(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database of the test's own."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'old.db'}"
        return
    server = str(request.getfixturevalue("postgres_server"))
    with throwaway_postgres(server=server, prefix="paperclub_m7") as url:
        yield url


def _rows(url: str, sql: str) -> list[tuple[object, ...]]:
    """The rows a query returns."""
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return [tuple(row) for row in conn.execute(text(sql))]
    finally:
        engine.dispose()


def _fill(url: str, statements: list[str]) -> None:
    """Run statements in one transaction."""
    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            for statement in statements:
                conn.execute(text(statement))
    finally:
        engine.dispose()


def test_each_paper_lands_in_the_workspace_that_used_it(blank: str) -> None:
    config = alembic_config(url=blank)
    command.upgrade(config, "0006")
    _fill(blank, ROWS_AT_0006)
    command.upgrade(config, "0007")
    workspaces = dict(_rows(blank, "SELECT platform || ':' || team, id FROM workspaces"))
    assert set(workspaces) == {"slack:T1", "discord:G1"}
    slack, guild = workspaces["slack:T1"], workspaces["discord:G1"]
    papers = _rows(blank, "SELECT id, title, workspace_id, arxiv_id FROM papers ORDER BY id")
    # 1: posted first in Slack, so Slack's; 2: queued for the guild's channel; 3: the first
    # channel's workspace; 4: the copy of 1 for the guild, with its own arXiv id row.
    assert papers == [
        (1, "Straggler mitigation", slack, "2401.00001"),
        (2, "Discord only", guild, None),
        (3, "Never posted", slack, None),
        (4, "Straggler mitigation", guild, "2401.00001"),
    ]
    assert _rows(blank, "SELECT id, paper_id FROM posts ORDER BY id") == [(1, 1), (2, 4)]
    # Each group keeps its own votes and comments, on its own post of its own row.
    assert _rows(blank, "SELECT post_id, user_id FROM votes ORDER BY post_id") == [
        (1, "U1"),
        (2, "D9"),
    ]


def test_a_copied_paper_is_found_by_full_text_on_sqlite(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'fts.db'}"
    config = alembic_config(url=url)
    command.upgrade(config, "0006")
    _fill(url, ROWS_AT_0006)
    command.upgrade(config, "0007")
    found = _rows(url, "SELECT rowid FROM papers_fts WHERE papers_fts MATCH 'straggler' ORDER BY 1")
    assert found == [(1,), (4,)]
    _fill(url, ["UPDATE papers SET title = 'Wombat routing' WHERE id = 4"])  # triggers work
    assert _rows(url, "SELECT rowid FROM papers_fts WHERE papers_fts MATCH 'wombat'") == [(4,)]


def test_an_archive_with_papers_and_no_channel_gets_one_unclaimed_workspace(blank: str) -> None:
    config = alembic_config(url=blank)
    command.upgrade(config, "0006")
    _fill(blank, [ROWS_AT_0006[1].replace("2, false), ", "NULL, false), ")])
    command.upgrade(config, "0007")
    assert _rows(blank, "SELECT platform, team FROM workspaces") == [("", "")]
    assert _rows(blank, "SELECT count(*) FROM papers WHERE workspace_id IS NULL") == [(0,)]


def test_an_empty_archive_migrates_and_comes_back_down(blank: str) -> None:
    config = alembic_config(url=blank)
    command.upgrade(config, "0007")
    assert _rows(blank, "SELECT count(*) FROM workspaces") == [(0,)]
    command.downgrade(config, "0006")
    assert _rows(blank, "SELECT count(*) FROM papers") == [(0,)]
