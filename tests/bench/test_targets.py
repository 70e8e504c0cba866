"""The bench table's targets: one direction per row, ratios always ours over the baseline."""

from __future__ import annotations

from typing import Any

import pytest

from bench.__main__ import table
from bench.stats import figure
from bench.targets import judged


def row(*, name: str, unit: str, ours: float, theirs: float) -> dict[str, Any]:
    """A judged row with one run each side."""
    return judged(row=figure(name=name, unit=unit, ours=[ours], baseline="b", theirs=[theirs]))


@pytest.mark.parametrize(
    ("name", "unit", "ours", "theirs", "better", "target", "passed"),
    [
        ("search, 10,000 papers", "ms", 1.4, 1.0, "lower", "≤ 1.5x", True),
        ("search, 10,000 papers", "ms", 1.6, 1.0, "lower", "≤ 1.5x", False),
        ("event ingestion (ours)", "events/s", 40.0, 100.0, "higher", "≥ 0.3x", True),
        ("event ingestion (ours)", "events/s", 20.0, 100.0, "higher", "≥ 0.3x", False),
        ("start-up of paperclub run", "s", 1.2, 1.0, "lower", "≤ 1.5x", True),
        ("CLI search, 10,000 papers", "ms", 300.0, 30.0, "lower", "≤ 1.5x", False),
        ("idle memory of paperclub run", "MiB", 2.0, 1.0, "lower", "≤ 1.5x", False),
        ("search vs LIKE, 10,000 papers", "ms", 1.0, 10.0, "lower", "—", None),
        ("names forgiven, 10,000 papers", "ms", 1.0, 30.0, "lower", "—", None),
        ("import 100,000 papers", "s", 3.0, 1.0, "lower", "—", None),
        ("something new", "ops/s", 1.0, 1.0, "higher", "—", None),
    ],
)
def test_each_row_says_which_way_is_better_and_whether_it_met_its_target(
    name: str, unit: str, ours: float, theirs: float, better: str, target: str, passed: bool | None
) -> None:
    """The ratio reads as ours relative to the limit, in the row's own direction."""
    judged_row = row(name=name, unit=unit, ours=ours, theirs=theirs)
    assert judged_row["ratio"] == pytest.approx(ours / theirs)
    assert (judged_row["better"], judged_row["target"], judged_row["passed"]) == (
        better,
        target,
        passed,
    )


def test_the_table_shows_direction_target_and_verdict() -> None:
    """One line a row, with the same fields the JSON carries."""
    lines = table(
        rows=[
            row(name="search, 10,000 papers", unit="ms", ours=3.0, theirs=1.0),
            row(name="import 5 papers", unit="s", ours=1.0, theirs=1.0),
        ]
    )
    assert "lower" in lines.splitlines()[2] and "≤ 1.5x" in lines and "FAIL" in lines
    assert lines.splitlines()[3].endswith("reference")
