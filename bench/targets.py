"""The targets of issue 11, in one place, and how a row of `make bench` is judged against them.

Every ratio is ours over the baseline (medians), whichever way is better: a time or memory
passes at or below its limit, a rate (events/s) at or above it. Rows without a target are
references, shown for scale.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

Better = Literal["lower", "higher"]


@dataclass(frozen=True, slots=True)
class Target:
    """A limit on ours / baseline for the rows whose name starts with `prefix`."""

    prefix: str
    better: Better
    limit: float | None = None  # None: a reference row, no pass or fail

    @property
    def text(self) -> str:
        """'≤ 1.5x', '≥ 0.3x', or '—' for a reference."""
        if self.limit is None:
            return "—"
        return f"{'≤' if self.better == 'lower' else '≥'} {self.limit:g}x"

    def passed(self, *, ratio: float) -> bool | None:
        """Whether the ratio meets the limit (None for a reference)."""
        if self.limit is None:
            return None
        return ratio <= self.limit if self.better == "lower" else ratio >= self.limit


TARGETS = (
    # issue 17: hybrid vs bm25 alone, the same service
    Target(prefix="search with the extra", better="lower", limit=2.0),
    Target(prefix="search,", better="lower", limit=1.5),  # vs bench/search_bare.py's same page
    Target(prefix="search vs LIKE", better="lower"),  # a reference: what FTS saves
    # issue 34: a reference, the authors' index vs the scan of every author it replaced
    Target(prefix="names forgiven", better="lower"),
    # Slack's row vs a bare Bolt no-op, Discord's ("event ingestion (discord)") vs a bare
    # discord.py client: both ours must reach 0.3x of the framework's ceiling.
    Target(prefix="event ingestion", better="higher", limit=0.3),
    Target(prefix="start-up", better="lower", limit=1.5),  # vs the bare imports
    # issue 34: `paperclub search` spawn to exit vs a bare sqlite3 process's same FTS query
    Target(prefix="CLI search", better="lower", limit=1.5),
    Target(prefix="idle memory", better="lower", limit=1.5),  # vs the bare imports
    Target(prefix="import", better="lower"),  # a reference: vs a bare executemany
    # A reference: issue 16's target is absolute (a page in 50 ms), printed by bench/web.py.
    Target(prefix="web page", better="lower"),
    # References: MRR and recall@5 of hybrid over bm25 on the judged set (bench/relevance.py).
    Target(prefix="relevance", better="higher"),
    # issue 32: the ranked tray's precision must beat newest-first and filter-only trays of the
    # same days (bench/sources_rank.py); a tenth more at least, as a tie is no reason to rank.
    Target(prefix="sources ranking", better="higher", limit=1.1),
    # issue 32: a 2,000-entry listing fetched, filtered, ranked and deduped in at most twice
    # the bare feedparser parse of its bytes (bench/sources_fetch.py).
    Target(prefix="sources fetch", better="lower", limit=2.0),
)


def target_of(*, row: dict[str, Any]) -> Target:
    """The row's target; unknown rows are references, rates higher-is-better."""
    for target in TARGETS:
        if row["name"].startswith(target.prefix):
            return target
    return Target(prefix=row["name"], better="higher" if "/s" in row["unit"] else "lower")


def judged(*, row: dict[str, Any]) -> dict[str, Any]:
    """The row with its direction, target and verdict: better, target, limit, passed."""
    target = target_of(row=row)
    return {
        **row,
        "better": target.better,
        "target": target.text,
        "limit": target.limit,
        "passed": target.passed(ratio=row["ratio"]),
    }
