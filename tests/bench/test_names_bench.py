"""The names benchmark times the authors' index beside the scan it replaced on a small
synthetic archive built as the search benchmark builds them (authors listed by the triggers,
names folded), and both give the same papers for every typed name."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from bench import names, search

SIZE = 2_000


def test_the_index_and_the_scan_agree_and_are_timed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(search, "CACHE", tmp_path)
    monkeypatch.setattr(search, "build", _quiet(search.build))
    result = names.measure(size=SIZE, repeat=1, scan_repeat=1)  # raises when they disagree
    found = {row["query"]: row["papers"] for row in result["queries"]}
    assert set(found) == set(names.QUERIES)
    # A typo, a missing letter, an accent, an initial, a letter too many: found.
    for text in ("Dana Novac", "okafr", "Fátima Haddad", "K. Okafor", "Priya Kumarr"):
        assert found[text] > 0, text
    for text in ("Meyr", "Goran Dubios", "Halvorson"):  # too short, two edits, nobody
        assert found[text] == 0, text
    assert all(row["ours_ms"] > 0 and row["scan_ms"] > 0 for row in result["queries"])
    assert "index/scan" in names.table(results=[result])


def _quiet(build: Callable[..., Path]) -> Callable[..., Path]:
    """The archive builder without its progress lines."""
    return lambda *, size: build(size=size, log=lambda line: None)
