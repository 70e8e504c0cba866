"""Run the real `paperclub` CLI as a subprocess, in a folder and database of the test's own."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

Runner = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture
def paperclub(tmp_path: Path) -> Runner:
    """Call `python -m bot ARGS` with no Slack tokens and a private SQLite file."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "PAPERCLUB_"))} | {
        "PAPERCLUB_DATABASE_URL": f"sqlite:///{tmp_path / 'club.db'}",
        "PYTHONPATH": str(ROOT),
    }

    def run(  # type: ignore[no-untyped-def]
        *args: str, check: bool = True, stdin: str | None = None, **extra_env: str
    ):
        """Run one command; by default it must succeed."""
        done = subprocess.run(
            [sys.executable, "-m", "bot", *args],
            cwd=tmp_path,
            env=env | extra_env,
            input=stdin,
            capture_output=True,
            text=True,
            timeout=120,
        )
        if check:
            assert done.returncode == 0, done.stderr
        assert "Traceback" not in done.stderr, done.stderr
        return done

    return run
