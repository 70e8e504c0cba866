"""Smoke test of the event-ingestion benchmark: a short run stores exactly what the mix says."""

from __future__ import annotations

from bench import events


def test_short_run_counts_match_and_figures_are_positive() -> None:
    [row] = events.run(events=200, repeats=1)
    assert row["counts_match"], row["check"]
    assert row["median"] > 0 and row["baseline_median"] > 0 and row["ratio"] > 0
    assert row["min"] <= row["median"] <= row["max"]


def test_mix_is_deterministic_and_has_every_kind() -> None:
    mix = events.make_mix(total=2000)
    assert mix == events.make_mix(total=2000)
    kinds = {action.kind for action in mix}
    assert kinds == {"click", "react", "unreact", "reply", "edit", "delete", "again"}
    again = sum(action.kind == "again" for action in mix) / len(mix)
    assert 0.05 < again < 0.15
