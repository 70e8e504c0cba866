"""Smoke test of the CLI search benchmark: one short run of each side, measured from outside."""

from __future__ import annotations

from bench import cli_search


def test_a_short_run_times_both_processes_on_the_same_archive() -> None:
    """run raises unless both sides found the query's papers (ours printed its page, the bare
    process its ten rows) before any was timed."""
    (row,) = cli_search.run(size=2_000, repeats=1)
    assert row["name"] == "CLI search, 2,000 papers"
    assert row["runs"] == 1 and row["median"] > 0 and row["baseline_median"] > 0
