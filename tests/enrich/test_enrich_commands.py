"""`paperclub run` on a fresh folder: with a fake that knows the shipped list's papers, the
first post shows a real title and a whole abstract; offline, the first paper with an abstract,
never the list's header."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.fakelookup import FakeScholar
from tests.fakelookup.reading_list import CATALOGUE


@pytest.fixture
def scholar() -> Iterator[FakeScholar]:
    """The fake arXiv and Crossref, knowing the shipped list's papers."""
    with FakeScholar(records=list(CATALOGUE)) as fake:
        yield fake


def _first_post(*, folder: Path, env: dict[str, str]) -> str:
    """Start `paperclub run` (the console) in an empty folder, leave at once; its output."""
    done = subprocess.run(
        [sys.executable, "-m", "bot", "run"],
        cwd=folder,
        input="",
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
        env={
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("SLACK_", "PAPERCLUB_", "DISCORD_"))
        }
        | {"PYTHONPATH": str(ROOT), "COLUMNS": "200"}
        | env,
    )
    return done.stdout + done.stderr


def test_a_fresh_run_posts_a_real_title_and_whole_abstract_first(
    tmp_path: Path, scholar: FakeScholar
) -> None:
    shown = _first_post(
        folder=tmp_path,
        env={
            "PAPERCLUB_ARXIV_API_URL": scholar.arxiv_url,
            "PAPERCLUB_CROSSREF_API_URL": scholar.crossref_url,
        },
    )
    quill = CATALOGUE[1]  # the list's first paper after its header
    assert " ".join(quill.title.split()[:4]) in shown
    assert quill.abstract.split(". ")[-1][:40] in " ".join(shown.split())  # its last sentence
    assert "title taken from the abstract" not in shown
    assert "Nonuniform" not in shown.split("╭")[1].split("\n")[1]  # not the header


def test_offline_the_first_paper_with_an_abstract_is_posted(tmp_path: Path) -> None:
    closed = "http://127.0.0.1:9"
    shown = _first_post(
        folder=tmp_path,
        env={
            "PAPERCLUB_ARXIV_API_URL": f"{closed}/api/query",
            "PAPERCLUB_CROSSREF_API_URL": closed,
        },
    )
    assert "arXiv could not be reached" in shown
    assert "Performing efficient data slicing" in shown
    assert "No abstract on file" not in shown
