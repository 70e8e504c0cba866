"""Run the real `paperclub` CLI in a folder and database of the test's own: in-process (the same
`main` that `python -m bot` calls, with its own environment, folder, stdin and output), or as a
real subprocess where the process itself is what a test is about (`run`)."""

from __future__ import annotations

import io
import logging
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bot.cli import main as cli

ROOT = Path(__file__).resolve().parents[2]

Runner = Callable[..., subprocess.CompletedProcess[str]]


def _check(done: subprocess.CompletedProcess[str], *, check: bool) -> None:
    """By default a command must succeed; no command may end in a traceback."""
    if check:
        assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr, done.stderr


@pytest.fixture
def paperclub(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> Iterator[Runner]:
    """Call `paperclub ARGS` in-process with no Slack tokens and a private SQLite file."""
    for name in [k for k in os.environ if k.startswith(("SLACK_", "PAPERCLUB_"))]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("PAPERCLUB_DATABASE_URL", f"sqlite:///{tmp_path / 'club.db'}")
    monkeypatch.chdir(tmp_path)
    # main() sets up logging for the process; put back pytest's handlers and levels after.
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    chatty = {n: logging.getLogger(n).level for n in ("alembic", "apscheduler", "bibtexparser")}

    def run(  # type: ignore[no-untyped-def]
        *args: str, check: bool = True, stdin: str | None = None, **extra_env: str
    ):
        """Run one command; by default it must succeed."""
        with monkeypatch.context() as local:
            for name, value in extra_env.items():
                local.setenv(name, value)
            local.setattr(sys, "stdin", io.StringIO(stdin or ""))
            capsys.readouterr()
            try:
                code = cli.main(argv=list(args))
            except SystemExit as exit:  # argparse's usage errors
                code = exit.code if isinstance(exit.code, int) else 2
            finally:
                root.handlers[:] = saved[0]
            out, err = capsys.readouterr()
        done = subprocess.CompletedProcess(["paperclub", *args], code, out, err)
        _check(done, check=check)
        return done

    yield run
    root.handlers[:] = saved[0]
    root.setLevel(saved[1])
    for name, level in chatty.items():
        logging.getLogger(name).setLevel(level)


@pytest.fixture
def paperclub_process(tmp_path: Path) -> Runner:
    """Run `python -m bot ARGS` as a real process with no Slack tokens and a private SQLite
    file."""
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
        _check(done, check=check)
        return done

    return run
