"""Run Alembic from code: `paperclub migrate`, and on every start."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, Engine, text

from bot.db.engine import make_engine

# Any number fixed for the project: replicas starting together migrate one at a time.
_PG_LOCK_KEY = 7_311_990


class MigrationsNotFound(RuntimeError):
    """Neither the installed package nor the source checkout holds the migrations."""


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


def alembic_config(*, url: str) -> Config:
    """An Alembic config for the URL, without needing alembic.ini."""
    config = Config()
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
    """Bring the database to the newest revision, one process at a time."""
    config = alembic_config(url=engine.url.render_as_string(hide_password=False))
    with (
        engine.connect() as connection,
        foreign_keys_off(connection=connection),
        connection.begin(),
    ):
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _PG_LOCK_KEY})
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
        check_foreign_keys(connection=connection)


def current_revision(*, engine: Engine) -> str | None:
    """The revision the database is at, or None when it was never migrated."""
    with engine.connect() as connection:
        if not engine.dialect.has_table(connection, "alembic_version"):
            return None
        return connection.execute(text("SELECT version_num FROM alembic_version")).scalar()


def upgrade_url(*, url: str) -> None:
    """Upgrade the database at the URL to head."""
    engine = make_engine(url=url)
    try:
        upgrade(engine=engine)
    finally:
        engine.dispose()
