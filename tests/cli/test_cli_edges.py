"""The CLI's small edges (issue 30): a reader that stops early, --version, PostgreSQL without its
driver, an import that took nothing, and `workspaces move` with its report."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli.conftest import ROOT, Runner
from tests.conftest import SAMPLE, SAMPLE_ENTRIES


def test_a_reader_that_stops_early_ends_the_command_quietly(
    paperclub: Runner, tmp_path: Path
) -> None:
    paperclub("import", str(SAMPLE))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "PAPERCLUB_"))}
    process = subprocess.Popen(
        [sys.executable, "-m", "bot", "queue", "--limit", "100"],
        env=env
        | {"PAPERCLUB_DATABASE_URL": f"sqlite:///{tmp_path / 'club.db'}", "PYTHONPATH": str(ROOT)},
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()  # `| head` gone before the first line: every write meets EPIPE
    stderr = process.stderr.read().decode()
    process.stderr.close()
    assert process.wait(timeout=60) == 141, stderr
    assert "BrokenPipeError" not in stderr and "Traceback" not in stderr, stderr


def test_version(paperclub: Runner) -> None:
    done = paperclub("--version")
    assert done.stdout.startswith("paperclub ") and len(done.stdout.split()) >= 2


def test_postgresql_without_its_driver_says_which_extra(
    paperclub: Runner, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "psycopg", None)  # as if the extra were not installed
    done = paperclub(
        "queue", check=False, PAPERCLUB_DATABASE_URL="postgresql://paperclub@127.0.0.1/test"
    )
    assert done.returncode == 1
    (line,) = done.stderr.splitlines()
    assert "pip install 'paperclub[postgres]'" in line


def test_an_import_that_takes_nothing_exits_non_zero(paperclub: Runner, tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps([{"authors": ["Nobody"]}, {"url": "not a paper"}]))
    done = paperclub("import", str(bad), "--json", check=False)
    assert done.returncode == 1
    report = json.loads(done.stdout)
    assert report["added"] == 0 and len(report["rejected"]) == 2
    assert report["workspace"] == "local"


def test_workspaces_move_hands_the_papers_over_and_says_what_stayed(
    paperclub: Runner, tmp_path: Path
) -> None:
    paperclub("import", str(SAMPLE), "--workspace", "console")
    own = tmp_path / "own.txt"
    # One paper the target holds already: the sample's last entry, imported there too.
    last = [b for b in SAMPLE.read_text("utf-8").split("\n\n") if b.strip()][-1].strip()
    own.write_text(last + "\n")
    into = paperclub("import", str(own), "--workspace", "slack:T0001")
    assert "Workspace: slack:T0001." in into.stdout
    listed = json.loads(paperclub("workspaces", "--json").stdout)
    assert {row["workspace"] for row in listed} == {"console", "slack:T0001"}
    done = paperclub("workspaces", "move", "--from", "console", "--to", "slack:T0001", "--json")
    report = json.loads(done.stdout)
    moved = {"moved": SAMPLE_ENTRIES - 1, "left": 1}
    assert report == {"from": "console", "to": "slack:T0001", **moved}
    words = paperclub("workspaces", "move", "--from", "console", "--to", "slack:T0001")
    assert "Moved 0 papers from console to slack:T0001" in words.stdout
    assert "1 stayed in console: slack:T0001 holds them already." in words.stdout
    exported = json.loads(paperclub("export", "--workspace", "slack:T0001").stdout)
    assert len(exported) == SAMPLE_ENTRIES


def test_workspaces_move_from_nowhere_is_one_clear_line(paperclub: Runner) -> None:
    paperclub("import", str(SAMPLE))
    done = paperclub("workspaces", "move", "--from", "console", "--to", "slack:T1", check=False)
    assert done.returncode == 1
    assert "There is no workspace console. Choose one of: local." in done.stderr
    same = paperclub("workspaces", "move", "--from", "local", "--to", "local", check=False)
    assert same.returncode == 1 and "both local" in same.stderr
