"""Smoke test of the start-up benchmark: one short run of each side, measured from outside."""

from __future__ import annotations

from bench import startup


def test_a_short_run_gives_both_rows_against_the_discovered_bare_imports() -> None:
    """run raises if the discovery start missed a library run cannot do without; the bare
    process imported all it found (else it would not have said ready)."""
    rows = startup.run(repeats=1)
    assert [row["name"] for row in rows] == [
        "start-up of paperclub run",
        "idle memory of paperclub run",
    ]
    for row in rows:
        assert row["runs"] == 1 and row["median"] > 0 and row["baseline_median"] > 0
        assert row["bare_modules"] > len(startup.BARE_MODULES)
