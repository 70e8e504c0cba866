"""The wheel carries the Alembic scripts: the repository keeps them in ./migrations (where
`alembic` and developers look), and the build copies them into the package as bot/migrations,
so an installed Paper Club migrates from any folder. Everything else is in pyproject.toml."""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

SOURCE = Path(__file__).resolve().parent / "migrations"


class BuildWithMigrations(build_py):
    """build_py, plus migrations/ (scripts and template, no caches) into bot/migrations."""

    def run(self) -> None:
        """Build the packages, then copy the migrations beside them."""
        super().run()
        target = Path(self.build_lib) / "bot" / "migrations"
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(SOURCE, target, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))


setup(cmdclass={"build_py": BuildWithMigrations})
