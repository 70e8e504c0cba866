"""bench.meetings_sweep runs end to end on a small club: its idle pass sends nothing (the
bench asserts it) and its row has the shape every figure has."""

from __future__ import annotations

from bench import meetings_sweep


def test_the_meetings_sweep_bench_measures_an_idle_pass() -> None:
    (row,) = meetings_sweep.run(channels=2, repeats=2)
    assert row["runs"] == 2 and row["unit"] == "ms"
    assert row["min"] <= row["median"] <= row["max"] and row["baseline_median"] > 0
    assert row["name"].startswith("meetings minute pass, 2 channels")
