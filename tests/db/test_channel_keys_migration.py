"""Revision 0002 carries 0001's data over: channel keys, queues, message ids, full-text search."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import create_engine, text
from sqlalchemy.exc import IntegrityError

from bot.db.migrate import alembic_config
from tests.conftest import throwaway_postgres

T0 = "2026-01-05 08:00:00"
OLD_ROWS = [
    "INSERT INTO channels (id, platform, team_id, channel_id, post_time, timezone, weekdays, "
    "paused, empty_notice_sent) VALUES (1, 'slack', 'T1', 'C1', '09:00', 'Europe/Berlin', "
    "'mon-fri', false, false), (2, 'console', '', 'console', '09:00', 'UTC', 'mon-fri', false, "
    "false)",
    "INSERT INTO papers (id, title, authors, abstract, fingerprint, source, added_at, position, "
    "status, channel) VALUES "
    "(1, 'Straggler mitigation', '[]', 'slow workers in synchronous training', 'f1', 's', "
    f"'{T0}', 1, 'posted', 'C1'), "
    f"(2, 'Console paper', '[]', 'x', 'f2', 's', '{T0}', 2, 'queued', 'console'), "
    f"(3, 'Unknown channel', '[]', 'x', 'f3', 's', '{T0}', 3, 'queued', 'C9'), "
    f"(4, 'Shared paper', '[]', 'x', 'f4', 's', '{T0}', 4, 'queued', NULL)",
    "INSERT INTO posts (id, paper_id, channel_id, local_date, state, ts, permalink, created_at) "
    f"VALUES (1, 1, 1, '2026-01-05', 'posted', '1767600000.000100', 'https://x/p', '{T0}')",
    "INSERT INTO comments (id, post_id, channel_id, user_id, ts, text, created_at, deleted) "
    f"VALUES (1, 1, 1, 'U1', '1767600001.000200', 'gradient compression helps', '{T0}', false)",
    f"INSERT INTO votes (post_id, user_id, value, source, updated_at) VALUES (1, 'U1', 1, "
    f"'button', '{T0}')",
    "INSERT INTO recaps (channel_id, local_date, ts, created_at) VALUES (1, '2026-01-09', "
    f"'1767900000.000100', '{T0}')",
]


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def at_0001(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A database of the test's own at revision 0001, holding a little of everything."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'old.db'}"
        yield from _filled(url)
        return
    server = str(request.getfixturevalue("postgres_server"))
    with throwaway_postgres(server=server, prefix="paperclub_m2") as url:
        yield from _filled(url)


def _filled(url: str) -> Iterator[str]:
    """Upgrade to 0001 and insert the old rows."""
    command.upgrade(alembic_config(url=url), "0001")
    engine = create_engine(url)
    with engine.begin() as conn:
        for statement in OLD_ROWS:
            conn.execute(text(statement))
    engine.dispose()
    yield url


def _rows(url: str, sql: str) -> list[tuple[object, ...]]:
    """The rows of one query."""
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return [tuple(row) for row in conn.execute(text(sql))]
    finally:
        engine.dispose()


def test_upgrade_carries_every_row_over(at_0001: str) -> None:
    command.upgrade(alembic_config(url=at_0001), "head")
    assert _rows(
        at_0001, "SELECT id, platform, workspace, external_id, private FROM channels ORDER BY id"
    ) == [(1, "slack", "T1", "C1", False), (2, "console", "", "console", False)]
    queues = _rows(at_0001, "SELECT id, queue_channel_id FROM papers ORDER BY id")
    # C9 follows nothing: its paper joins the shared list rather than a queue nobody reads.
    assert queues == [(1, 1), (2, 2), (3, None), (4, None)]
    assert _rows(at_0001, "SELECT message_id FROM posts") == [("1767600000.000100",)]
    assert _rows(at_0001, "SELECT message_id, text FROM comments") == [
        ("1767600001.000200", "gradient compression helps")
    ]
    assert _rows(at_0001, "SELECT message_id FROM recaps") == [("1767900000.000100",)]
    assert _rows(at_0001, "SELECT count(*) FROM votes") == [(1,)]


def test_keys_and_message_ids_stay_unique(at_0001: str) -> None:
    command.upgrade(alembic_config(url=at_0001), "head")
    engine = create_engine(at_0001)
    try:
        with pytest.raises(IntegrityError), engine.begin() as conn:
            conn.execute(
                text(
                    "INSERT INTO channels (platform, workspace, external_id, private, "
                    "post_time, timezone, weekdays, paused, empty_notice_sent) VALUES "
                    "('slack', 'T1', 'C1', false, '09:00', 'UTC', 'mon', false, false)"
                )
            )
        with pytest.raises(IntegrityError), engine.begin() as conn:
            conn.execute(
                text(
                    "INSERT INTO comments (post_id, channel_id, user_id, message_id, "
                    f"text, created_at, deleted) VALUES (1, 1, 'U2', "
                    f"'1767600001.000200', 'again', '{T0}', false)"
                )
            )
        with engine.begin() as conn:  # the same channel id in another workspace is another channel
            conn.execute(
                text(
                    "INSERT INTO channels (id, platform, workspace, external_id, private, "
                    "post_time, timezone, weekdays, paused, empty_notice_sent) VALUES "
                    "(10, 'slack', 'T2', 'C1', false, '09:00', 'UTC', 'mon', false, false)"
                )
            )
    finally:
        engine.dispose()


def test_full_text_search_still_finds_old_and_new_rows_on_sqlite(tmp_path: Path) -> None:
    url = next(_filled(f"sqlite:///{tmp_path / 'fts.db'}"))
    command.upgrade(alembic_config(url=url), "head")
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO papers (workspace_id, title, authors, abstract, fingerprint, "
                "source, added_at, position, status) VALUES ((SELECT min(id) FROM workspaces), "
                f"'Pipeline bubbles', '[]', 'zero bubble schedules', 'f5', 's', '{T0}', 5, "
                "'queued')"
            )
        )
        conn.execute(
            text(
                "INSERT INTO comments (post_id, channel_id, user_id, message_id, text, "
                f"created_at, deleted) VALUES (1, 1, 'U2', '1767600002.000300', "
                f"'we tried bubble filling', '{T0}', false)"
            )
        )
    engine.dispose()
    match = "SELECT rowid FROM {t} WHERE {t} MATCH :q ORDER BY rowid"
    assert _fts(url, match.format(t="papers_fts"), "straggler") == [1]
    assert _fts(url, match.format(t="papers_fts"), "bubble") == [5]
    assert _fts(url, match.format(t="comments_fts"), "compression") == [1]
    assert _fts(url, match.format(t="comments_fts"), "bubble") == [2]


def _fts(url: str, sql: str, q: str) -> list[int]:
    """Row ids a full-text query finds."""
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return [int(r[0]) for r in conn.execute(text(sql), {"q": q})]
    finally:
        engine.dispose()


def test_downgrade_brings_the_old_shape_and_data_back(at_0001: str) -> None:
    config = alembic_config(url=at_0001)
    command.upgrade(config, "head")
    command.downgrade(config, "0001")
    assert _rows(at_0001, "SELECT id, channel FROM papers ORDER BY id") == [
        (1, "C1"),
        (2, "console"),
        (3, None),
        (4, None),
    ]
    assert _rows(at_0001, "SELECT team_id, channel_id FROM channels ORDER BY id") == [
        ("T1", "C1"),
        ("", "console"),
    ]
    assert _rows(at_0001, "SELECT ts FROM posts") == [("1767600000.000100",)]
    assert _rows(at_0001, "SELECT ts FROM comments") == [("1767600001.000200",)]
