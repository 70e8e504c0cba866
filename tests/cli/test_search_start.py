"""`paperclub search` on a current schema reads without Alembic (issue 34: a fast CLI), and
still migrates a fresh database and refuses one a newer Paper Club migrated."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from bot.db.migrate import head_revision
from tests.cli.conftest import ROOT, Runner
from tests.conftest import SAMPLE


def _revision(*, path: Path) -> str:
    """The revision stored in a SQLite archive."""
    with sqlite3.connect(path) as db:
        (revision,) = db.execute("SELECT version_num FROM alembic_version").fetchone()
    db.close()
    return str(revision)


def test_a_search_on_a_fresh_database_migrates_it_first(paperclub: Runner, tmp_path: Path) -> None:
    done = paperclub("search", "transformers")
    assert "No papers or comments match" in done.stdout
    assert _revision(path=tmp_path / "club.db") == head_revision()


def test_a_search_on_a_database_a_newer_paper_club_migrated_is_one_clear_line(
    paperclub: Runner, tmp_path: Path
) -> None:
    paperclub("import", str(SAMPLE))
    with sqlite3.connect(tmp_path / "club.db") as db:
        db.execute("UPDATE alembic_version SET version_num = '9999'")
    db.close()
    done = paperclub("search", "transformers", check=False)
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [
        f"paperclub: the database is at schema revision 9999, newer than this Paper Club "
        f"knows (its newest is {head_revision()}): upgrade Paper Club to use it"
    ]
    assert _revision(path=tmp_path / "club.db") == "9999"  # left as it was


def test_a_search_on_a_current_database_loads_no_alembic(paperclub: Runner, tmp_path: Path) -> None:
    """Seen from a real process's import log: nothing of Alembic (nor its scripts) is loaded,
    and the answer is the search's."""
    paperclub("import", str(SAMPLE))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "PAPERCLUB_"))}
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "bot", "search", "recommendation"],
        env=env
        | {"PAPERCLUB_DATABASE_URL": f"sqlite:///{tmp_path / 'club.db'}", "PYTHONPATH": str(ROOT)},
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "for “recommendation”:" in done.stdout  # found, not "No papers"
    loaded = [line.rpartition("|")[2].strip() for line in done.stderr.splitlines()]
    assert "sqlalchemy" in loaded  # the log is the import log
    assert not [name for name in loaded if name.startswith(("alembic", "migrations"))]
