"""Smoke test of the CLI search benchmark: one short run of each side, measured from outside."""

from __future__ import annotations

from bench import cli_search


def test_a_short_run_times_every_process_on_the_same_archive() -> None:
    """run raises unless every side found the query's papers (ours printed its page, answered
    by the running bot and in its own process alike, the bare process its ten rows) before
    any was timed."""
    warm, cold = cli_search.run(size=2_000, repeats=1)
    assert warm["name"] == "CLI search, 2,000 papers, a bot running"
    assert cold["name"] == "CLI search, 2,000 papers, no bot running"
    for row in (warm, cold):
        assert row["runs"] == 1 and row["median"] > 0 and row["baseline_median"] > 0
