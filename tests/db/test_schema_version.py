"""The read path's cheap check: the head read from the scripts' names is Alembic's head, a
current database is left to one query, a behind one is upgraded and a newer one refused."""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic import command
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, text

from bot.db.database import Database
from bot.db.migrate import (
    SchemaTooNew,
    alembic_config,
    current_revision,
    ensure_current,
    head_revision,
    revisions,
    upgrade,
)


def test_every_script_is_named_for_its_revision_and_the_newest_is_alembics_head() -> None:
    """ensure_current trusts the names: a script named otherwise would make it upgrade (or
    skip an upgrade) wrongly, so the names are held to what Alembic reads inside them."""
    scripts = ScriptDirectory.from_config(alembic_config(url="sqlite://"))
    assert sorted(script.revision for script in scripts.walk_revisions()) == revisions()
    assert scripts.get_current_head() == head_revision()


def _set_revision(*, url: str, revision: str) -> None:
    """Write a revision into alembic_version, as another Paper Club would have left it."""
    engine = create_engine(url)
    try:
        with engine.begin() as connection:
            connection.execute(text("UPDATE alembic_version SET version_num = :r"), {"r": revision})
    finally:
        engine.dispose()


def test_a_current_database_is_left_alone(any_url: str) -> None:
    database = Database(url=any_url)
    try:
        ensure_current(engine=database.engine)
        assert current_revision(engine=database.engine) == head_revision()
    finally:
        database.dispose()


def test_a_database_behind_is_upgraded(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'club.db'}"
    command.upgrade(alembic_config(url=url), revisions()[-2])
    database = Database(url=url)
    try:
        ensure_current(engine=database.engine)
        assert current_revision(engine=database.engine) == head_revision()
    finally:
        database.dispose()


def test_a_fresh_database_is_migrated(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'club.db'}"
    database = Database(url=url)
    try:
        ensure_current(engine=database.engine)
        assert current_revision(engine=database.engine) == head_revision()
    finally:
        database.dispose()


@pytest.mark.parametrize("migrate", [ensure_current, upgrade])
def test_a_database_a_newer_paper_club_migrated_is_refused(any_url: str, migrate: object) -> None:
    _set_revision(url=any_url, revision="9999")
    database = Database(url=any_url)
    try:
        with pytest.raises(SchemaTooNew, match=r"9999.*upgrade Paper Club"):
            migrate(engine=database.engine)  # type: ignore[operator]
        assert current_revision(engine=database.engine) == "9999"  # nothing touched
    finally:
        database.dispose()
