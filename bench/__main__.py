"""`make bench`: every benchmark in one run, one table, and the same figures as JSON.

    python -m bench [--quick] [--json FILE]

Each figure is a median with min and max, beside a baseline measured in the same run, and
their ratio, always ours / baseline. Each row says which way is better and, where issue 11
sets one, its target (bench/targets.py) and whether this run met it.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench import discord_events, embedding, events, imports, search, startup, web
from bench.stats import figure
from bench.targets import judged

Row = dict[str, Any]


def search_rows(*, sizes: list[int]) -> list[Row]:
    """Per archive size: ours against the bare FTS5 query, and ours against a LIKE scan."""
    rows: list[Row] = []
    for result in search.run(sizes):
        per_query = result["queries"]
        ours = [q["ours_ms"] for q in per_query]
        size = f"{result['size']:,} papers"
        rows.append(
            figure(
                name=f"search, {size}",
                unit="ms",
                ours=ours,
                baseline="bare FTS5 bm25",
                theirs=[q["bare_ms"] for q in per_query],
            )
        )
        like = [q["like_ms"] for q in per_query]
        rows.append(
            figure(name=f"search vs LIKE, {size}", unit="ms", ours=ours, baseline="LIKE scan",
                   theirs=like)
        )  # fmt: skip
    return rows


def table(*, rows: list[Row]) -> str:
    """The one table `make bench` prints; ratio = our median / the baseline's median."""
    head = (f"{'figure':<30} {'unit':<9} {'better':<6} {'median':>10} {'min–max':>21}  "
            f"{'baseline':<17} {'median':>10} {'min–max':>21} {'ratio':>8} {'target':>7}  "
            "result")  # fmt: skip
    lines = [head, "-" * len(head)]
    for r in rows:
        ours = f"{r['min']:,.2f}–{r['max']:,.2f}"
        theirs = f"{r['baseline_min']:,.2f}–{r['baseline_max']:,.2f}"
        verdict = {True: "pass", False: "FAIL", None: "reference"}[r["passed"]]
        lines.append(
            f"{r['name']:<30} {r['unit']:<9} {r['better']:<6} {r['median']:>10,.2f} {ours:>21}  "
            f"{r['baseline']:<17} {r['baseline_median']:>10,.2f} {theirs:>21} "
            f"{r['ratio']:>7.2f}x {r['target']:>7}  {verdict}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Run every benchmark (smaller with --quick), print the table, write the JSON."""
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, for a smoke run")
    parser.add_argument("--json", type=Path, default=Path("bench/results.json"))
    args = parser.parse_args(argv)
    sizes = [2_000] if args.quick else [10_000, 100_000, 1_000_000]
    plan: list[tuple[str, Callable[[], list[Row]]]] = [
        ("search", lambda: search_rows(sizes=sizes)),
        ("event ingestion", lambda: events.run(events=200 if args.quick else 1000,
                                               repeats=3 if args.quick else 5)),
        ("event ingestion (discord)", lambda: discord_events.run(
            events=200 if args.quick else 1000, repeats=3 if args.quick else 5)),
        ("import", lambda: imports.run(papers=5_000 if args.quick else 100_000, repeats=3)),
        ("start-up", lambda: startup.run(repeats=3 if args.quick else 5)),
        ("web archive", lambda: web.run(size=sizes[0] if args.quick else 100_000,
                                        repeat=3 if args.quick else 20)),
        ("embedding", lambda: embedding.run(texts=32 if args.quick else 128, repeat=3)),
    ]  # fmt: skip
    rows: list[Row] = []
    for name, bench in plan:
        started = time.perf_counter()
        print(f"… {name}", file=sys.stderr, flush=True)
        rows += [judged(row=row) for row in bench()]
        print(f"  {name} done in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    print(table(rows=rows))
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(rows, indent=2) + "\n")
    print(f"\nWrote {args.json}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
