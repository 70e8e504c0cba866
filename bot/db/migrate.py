"""Run Alembic from code: `paperclub migrate`, and on every start."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, text

from bot.db.engine import make_engine

# Any number fixed for the project: replicas starting together migrate one at a time.
_PG_LOCK_KEY = 7_311_990


class MigrationsNotFound(RuntimeError):
    """The migrations folder is neither beside the package nor in the working directory."""


def migrations_dir() -> Path:
    """Where the Alembic scripts are: the source checkout, or ./migrations (the Docker image)."""
    for candidate in (
        Path(__file__).resolve().parents[2] / "migrations",
        Path.cwd() / "migrations",
    ):
        if (candidate / "env.py").is_file():
            return candidate
    raise MigrationsNotFound(
        "Cannot find the migrations folder; run paperclub from the project folder."
    )


def alembic_config(*, url: str) -> Config:
    """An Alembic config for the URL, without needing alembic.ini."""
    config = Config()
    config.set_main_option("script_location", str(migrations_dir()))
    # ConfigParser interpolation would eat a % in a password.
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def upgrade(*, engine: Engine) -> None:
    """Bring the database to the newest revision, one process at a time."""
    config = alembic_config(url=engine.url.render_as_string(hide_password=False))
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _PG_LOCK_KEY})
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


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
