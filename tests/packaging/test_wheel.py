"""The built wheel, installed into a fresh virtualenv, runs from an empty folder: it carries its
migrations and the sample reading list, and needs nothing of the source checkout.

The wheel is built and installed offline (no test reaches the internet): built without build
isolation by this venv's setuptools, installed with --no-deps, and its dependencies borrowed
from this venv's site-packages through a .pth line. That line only extends sys.path, so this
venv's editable hook for `bot` is not loaded: the test checks `bot` comes from the wheel.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import ROOT, SAMPLE

# What setup.py and MANIFEST.in read; the copy keeps build/ and *.egg-info out of the checkout.
SOURCES = ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "LICENSE", "bot", "migrations")


def _run(
    args: list[str], *, cwd: Path, env: dict[str, str] | None = None, stdin: str = ""
) -> subprocess.CompletedProcess[str]:
    """Run a command to completion; it must succeed without a traceback."""
    done = subprocess.run(
        args,
        cwd=cwd,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert done.returncode == 0, f"{args}: {done.stdout}\n{done.stderr}"
    assert "Traceback" not in done.stderr, done.stderr
    return done


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel `pip wheel .` builds from a copy of the checkout."""
    source = tmp_path_factory.mktemp("source")
    for name in SOURCES:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, source / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(path, source / name)
    dist = tmp_path_factory.mktemp("dist")
    _run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "--no-index",
            "--quiet",
            "-w",
            str(dist),
            str(source),
        ],
        cwd=source,
    )
    (built,) = dist.glob("paperclub-*.whl")
    return built


@pytest.fixture(scope="module")
def venv(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A fresh virtualenv with the wheel installed, its dependencies borrowed from ours."""
    where = tmp_path_factory.mktemp("venv")
    _run([sys.executable, "-m", "venv", str(where)], cwd=where)
    python = where / "bin" / "python"
    _run(
        [str(python), "-m", "pip", "install", "--no-deps", "--no-index", "--quiet", str(wheel)],
        cwd=where,
    )
    purelib = Path(
        _run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"], cwd=where
        ).stdout.strip()
    )
    (purelib / "zz_borrowed_dependencies.pth").write_text(sysconfig.get_path("purelib") + "\n")
    yield where


def _env(*, folder: Path) -> dict[str, str]:
    """No tokens, no PYTHONPATH, a database in the empty folder, look-ups on a closed port."""
    base = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("SLACK_", "PAPERCLUB_", "DISCORD_")) and k != "PYTHONPATH"
    }
    return base | {
        "PAPERCLUB_DATABASE_URL": f"sqlite:///{folder / 'club.db'}",
        "PAPERCLUB_ARXIV_API_URL": "http://127.0.0.1:9/api/query",
        "PAPERCLUB_CROSSREF_API_URL": "http://127.0.0.1:9",
        "NO_COLOR": "1",
    }


def test_the_wheel_carries_migrations_and_the_reading_list(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    versions = sorted(p.name for p in (ROOT / "migrations" / "versions").glob("*.py"))
    assert "bot/migrations/env.py" in names
    assert "bot/migrations/script.py.mako" in names
    assert {f"bot/migrations/versions/{v}" for v in versions} <= names
    assert "bot/data/" + SAMPLE.name in names
    assert not any("__pycache__" in n or n.startswith("migrations/") for n in names)


def test_every_command_runs_from_an_empty_folder(venv: Path, tmp_path: Path) -> None:
    folder = tmp_path / "empty"
    folder.mkdir()
    env = _env(folder=folder)
    paperclub = str(venv / "bin" / "paperclub")
    where = _run(
        [str(venv / "bin" / "python"), "-c", "import bot; print(bot.__file__)"], cwd=folder, env=env
    ).stdout
    assert where.startswith(str(venv)), where

    _run([paperclub, "migrate"], cwd=folder, env=env)
    listing = folder / "list.csv"
    listing.write_text(
        "title,abstract\nA Paper From The Wheel Test,We show that an installed wheel migrates"
        " and imports from any folder with nothing of the checkout beside it.\n",
        encoding="utf-8",
    )
    imported = _run([paperclub, "import", str(listing)], cwd=folder, env=env)
    assert imported.stdout.startswith("Added 1 paper"), imported.stdout
    queue = _run([paperclub, "queue", "--json"], cwd=folder, env=env)
    assert "A Paper From The Wheel Test" in queue.stdout

    console = _run(
        [paperclub, "run", "--mode", "console"],
        cwd=folder,
        env=env,
        stdin="+1\n/paperclub search wheel\n",
    )
    assert "A Paper From The Wheel Test" in console.stdout
    assert "👍 1 · 👎 0" in console.stdout
    assert "1–1 of 1" in console.stdout
    assert sorted(p.name for p in folder.iterdir()) == ["club.db", "list.csv"]
