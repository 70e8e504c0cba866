"""Run Alembic from code: `paperclub migrate`, and on every start; a read path asks
`ensure_current` instead, which loads Alembic only when the schema is behind."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Connection, Engine, text

from bot.db.engine import make_engine

if TYPE_CHECKING:
    from alembic.config import Config

# Any number fixed for the project: replicas starting together migrate one at a time.
_PG_LOCK_KEY = 7_311_990


# A revision's file is named for it: versions/0015_session_memory.py holds revision "0015"
# (tests/db/test_schema_version.py holds every file to that, and the head to Alembic's).
_REVISION_FILE = re.compile(r"^(\d{4})_\w+\.py$")


class MigrationsNotFound(RuntimeError):
    """Neither the installed package nor the source checkout holds the migrations."""


class SchemaTooNew(RuntimeError):
    """The database was migrated by a newer Paper Club than this one: its revision is none
    this one knows, and running on it could misread or damage what the newer one wrote."""


def migrations_dir() -> Path:
    """Where the Alembic scripts are: bot/migrations in an installed wheel (setup.py copies
    them there), or the checkout's top-level migrations/ (editable installs and the tests);
    never the working directory, so every command runs from any folder."""
    package = Path(__file__).resolve().parents[1]
    for candidate in (package / "migrations", package.parent / "migrations"):
        if (candidate / "env.py").is_file():
            return candidate
    raise MigrationsNotFound(
        f"Cannot find the migrations: {package / 'migrations'} is missing. "
        "Reinstall Paper Club from a wheel or run it from its source checkout."
    )


def revisions() -> list[str]:
    """Every revision this Paper Club knows, oldest first, read from the scripts' names (no
    Alembic import: listing a folder costs ~0.1 ms, loading Alembic and its scripts ~0.2 s)."""
    names = (path.name for path in (migrations_dir() / "versions").iterdir())
    return sorted(match[1] for match in map(_REVISION_FILE.match, names) if match)


def head_revision() -> str:
    """The newest revision: the one a current database is at."""
    return revisions()[-1]


def alembic_config(*, url: str) -> Config:
    """An Alembic config for the URL, without needing alembic.ini."""
    from alembic.config import Config

    # Alembic's default stdout is sys.stdout as it was when alembic.config was first
    # imported, which is now late (a test's captured stream, closed after it): pass today's.
    config = Config(stdout=sys.stdout)
    config.set_main_option("script_location", str(migrations_dir()))
    # ConfigParser interpolation would eat a % in a password.
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


@contextmanager
def foreign_keys_off(*, connection: Connection) -> Iterator[None]:
    """SQLite's recipe for rebuilding tables: foreign keys off around the transaction (a table
    that Alembic's batch mode rebuilds is dropped, and with foreign keys on that would cascade
    into every row referring to it). Call check_foreign_keys before the transaction commits."""
    if connection.dialect.name != "sqlite":
        yield
        return
    raw = connection.connection.driver_connection
    assert raw is not None
    raw.execute("PRAGMA foreign_keys=OFF")  # outside any transaction, or it is a no-op
    try:
        yield
    finally:
        raw.execute("PRAGMA foreign_keys=ON")


def check_foreign_keys(*, connection: Connection) -> None:
    """Refuse to commit a migration that left a row pointing nowhere (SQLite)."""
    if connection.dialect.name == "sqlite":
        broken = connection.exec_driver_sql("PRAGMA foreign_key_check").all()
        if broken:
            raise RuntimeError(f"the migration broke {len(broken)} foreign key(s): {broken[:5]}")


def upgrade(*, engine: Engine) -> None:
    """Bring the database to the newest revision, one process at a time; SchemaTooNew when a
    newer Paper Club migrated it."""
    from alembic import command

    config = alembic_config(url=engine.url.render_as_string(hide_password=False))
    with (
        engine.connect() as connection,
        foreign_keys_off(connection=connection),
        connection.begin(),
    ):
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _PG_LOCK_KEY})
        _refuse_unknown(connection=connection)
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
        check_foreign_keys(connection=connection)


def _stored_revision(*, connection: Connection) -> str | None:
    """The revision on the connection's database, or None when it was never migrated."""
    if not connection.dialect.has_table(connection, "alembic_version"):
        return None
    return connection.execute(text("SELECT version_num FROM alembic_version")).scalar()


def _refuse_unknown(*, connection: Connection) -> None:
    """SchemaTooNew when the database is at a revision this Paper Club has no script for
    (Alembic would stop on it with a traceback)."""
    stored = _stored_revision(connection=connection)
    if stored is not None and stored not in revisions():
        raise SchemaTooNew(
            f"the database is at schema revision {stored}, newer than this Paper Club knows "
            f"(its newest is {head_revision()}): upgrade Paper Club to use it"
        )


def current_revision(*, engine: Engine) -> str | None:
    """The revision the database is at, or None when it was never migrated."""
    with engine.connect() as connection:
        return _stored_revision(connection=connection)


def ensure_current(*, engine: Engine) -> None:
    """For a command that reads: one query when the schema is current (no Alembic, no
    migration scripts loaded), else the full upgrade (a fresh or older database is brought
    up to date, a newer one refused)."""
    if current_revision(engine=engine) != head_revision():
        upgrade(engine=engine)


def upgrade_url(*, url: str) -> None:
    """Upgrade the database at the URL to head."""
    engine = make_engine(url=url)
    try:
        upgrade(engine=engine)
    finally:
        engine.dispose()
