"""One shape for every benchmark figure: median with min and max, beside its baseline."""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from typing import Any


def figure(
    *, name: str, unit: str, ours: Sequence[float], baseline: str, theirs: Sequence[float]
) -> dict[str, Any]:
    """A row of the `make bench` table; ratio is ours over the baseline, medians."""
    return {
        "name": name,
        "unit": unit,
        "median": statistics.median(ours),
        "min": min(ours),
        "max": max(ours),
        "baseline": baseline,
        "baseline_median": statistics.median(theirs),
        "baseline_min": min(theirs),
        "baseline_max": max(theirs),
        "ratio": statistics.median(ours) / statistics.median(theirs),
        "runs": len(ours),
    }
