"""`make run` installs the runtime alone with visible progress; `make test` adds the dev
toolchain it needs (read from `make -n`, which runs nothing)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.cli.conftest import ROOT

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="needs make")


def _planned(*, target: str, venv: Path) -> list[str]:
    """The commands `make TARGET` would run for a fresh virtualenv at `venv`."""
    done = subprocess.run(
        ["make", "--no-print-directory", "-n", "-C", str(ROOT), target, f"VENV={venv}"],
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    return done.stdout.splitlines()


def test_make_run_installs_the_runtime_only_and_shows_progress(tmp_path: Path) -> None:
    lines = _planned(target="run", venv=tmp_path / "venv")
    installs = [line for line in lines if "pip install" in line and "--upgrade pip" not in line]
    assert installs == [f"{tmp_path / 'venv'}/bin/python -m pip install --progress-bar on -e ."]
    assert any(line.startswith("echo ") and "Installing" in line for line in lines)
    assert lines[-1].endswith("bin/paperclub run")


def test_make_test_installs_the_dev_toolchain_before_linting(tmp_path: Path) -> None:
    lines = _planned(target="test", venv=tmp_path / "venv")
    dev = next(n for n, line in enumerate(lines) if "-e '.[dev]'" in line)
    assert "--quiet" not in lines[dev]
    lint = next(n for n, line in enumerate(lines) if "bin/ruff check" in line)
    assert dev < lint
