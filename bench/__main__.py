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

from bench import (
    cli_search,
    discord_events,
    embedding,
    events,
    imports,
    meetings_sweep,
    names,
    relevance,
    search,
    sources_fetch,
    sources_rank,
    startup,
    web,
)
from bench.stats import figure
from bench.targets import judged
from bot.semantic.encoder import SemanticUnavailable

Row = dict[str, Any]


def search_rows(*, sizes: list[int]) -> list[Row]:
    """Per archive size: ours against the bare FTS5 query building the same page, and ours
    against a LIKE scan."""
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
                baseline="bare FTS5 query, same page",
                theirs=[q["bare_ms"] for q in per_query],
            )
        )
        like = [q["like_ms"] for q in per_query]
        rows.append(
            figure(
                name=f"search vs LIKE, {size}",
                unit="ms",
                ours=ours,
                baseline="LIKE scan",
                theirs=like,
            )
        )
    return rows


def names_rows(*, sizes: list[int]) -> list[Row]:
    """Per archive size: names forgiven from the authors' index against the scan of every
    paper's authors it replaced (the same answer, checked before timing)."""
    return [
        figure(
            name=f"names forgiven, {result['size']:,} papers",
            unit="ms",
            ours=[q["ours_ms"] for q in result["queries"]],
            baseline="scan of authors",
            theirs=[q["scan_ms"] for q in result["queries"]],
        )
        for result in names.run(sizes)
    ]


def hybrid_rows(*, size: int) -> list[Row]:
    """The search service with the semantic extra against bm25 alone, the same service; the
    vectors' memory goes on stderr and in the row's JSON, as it has no baseline to divide by."""
    try:
        result = search.measure_hybrid(size=size)
    except SemanticUnavailable as error:
        print(f"search with the extra: skipped, {error}", file=sys.stderr)
        return []
    print(f"  {size:,}: {search.memory_line(result=result)}", file=sys.stderr)
    per_query = result["queries"]
    row = figure(
        name=f"search with the extra, {size:,} papers",
        unit="ms",
        ours=[q["hybrid_ms"] for q in per_query],
        baseline="bm25 alone",
        theirs=[q["bm25_ms"] for q in per_query],
    )
    keys = (
        "first_search_ms",
        "vectors",
        "vectors_mib",
        "rss_before_mib",
        "rss_after_mib",
        "rss_growth_mib",
    )
    return [row | {key: result[key] for key in keys}]


def relevance_rows(*, result: dict[str, Any]) -> list[Row]:
    """Per kind of judged query (and all): the hybrid's MRR against the bare vectors', and
    keyword search's nDCG@10 against bare bm25's (the issue's bars, bench/relevance.py)."""
    rows: list[Row] = []
    table = result.get("table", {})
    pairs = (
        ("mrr", "MRR", "hybrid", "bare vectors"),
        ("ndcg@10", "nDCG@10", "keyword", "bare bm25"),
    )
    for kind in (*relevance.KINDS, relevance.ALL):
        if kind not in table.get("hybrid", {}):
            continue
        for key, label, engine, baseline in pairs:
            ours, theirs = table[engine][kind][key], table[baseline][kind][key]
            if not theirs:  # no ratio to a zero: the relevance table below still shows both
                print(f"relevance {label}, {kind}: {baseline} scores 0, no row", file=sys.stderr)
                continue
            rows.append(
                figure(
                    name=f"relevance {label}, {kind} queries, {engine}",
                    unit=label,
                    ours=[ours],
                    baseline=baseline,
                    theirs=[theirs],
                )
            )
    return rows


def table(*, rows: list[Row]) -> str:
    """The one table `make bench` prints; ratio = our median / the baseline's median."""
    width = max([30, *(len(r["name"]) for r in rows)])  # the longest name, kept aligned
    head = (
        f"{'figure':<{width}} {'unit':<9} {'better':<6} {'median':>10} {'min–max':>21}  "
        f"{'baseline':<17} {'median':>10} {'min–max':>21} {'ratio':>8} {'target':>7}  "
        "result"
    )
    lines = [head, "-" * len(head)]
    for r in rows:
        ours = f"{r['min']:,.2f}–{r['max']:,.2f}"
        theirs = f"{r['baseline_min']:,.2f}–{r['baseline_max']:,.2f}"
        verdict = {True: "pass", False: "FAIL", None: "reference"}[r["passed"]]
        lines.append(
            f"{r['name']:<{width}} {r['unit']:<9} {r['better']:<6} {r['median']:>10,.2f} "
            f"{ours:>21}  {r['baseline']:<17} {r['baseline_median']:>10,.2f} {theirs:>21} "
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
    judged_set: dict[str, Any] = {}  # relevance's own result: its table follows ours

    def relevance_run() -> list[Row]:
        """Relevance on the judged set, kept for its table, as rows."""
        judged_set.update(relevance.run(progress=False))
        return relevance_rows(result=judged_set)

    plan: list[tuple[str, Callable[[], list[Row]]]] = [
        ("search", lambda: search_rows(sizes=sizes)),
        ("names forgiven", lambda: names_rows(sizes=sizes)),
        ("search with the extra", lambda: hybrid_rows(size=sizes[0] if args.quick else 100_000)),
        (
            "event ingestion",
            lambda: events.run(events=200 if args.quick else 1000, repeats=3 if args.quick else 5),
        ),
        (
            "event ingestion (discord)",
            lambda: discord_events.run(
                events=200 if args.quick else 1000, repeats=3 if args.quick else 5
            ),
        ),
        ("import", lambda: imports.run(papers=5_000 if args.quick else 100_000, repeats=3)),
        ("start-up", lambda: startup.run(repeats=3 if args.quick else 5)),
        (
            "CLI search",
            lambda: cli_search.run(size=sizes[0], repeats=3 if args.quick else 11),
        ),
        (
            "web archive",
            lambda: web.run(
                size=sizes[0] if args.quick else 100_000, repeat=3 if args.quick else 20
            ),
        ),
        ("embedding", lambda: embedding.run(texts=32 if args.quick else 128, repeat=3)),
        # With the extra it embeds every listed paper that passed: two minutes, not for --quick.
        (
            "sources ranking",
            lambda: sources_rank.run(
                seeds=2 if args.quick else 5, days=5 if args.quick else 15, extra=not args.quick
            ),
        ),
        ("sources fetch", lambda: sources_fetch.run(repeats=3 if args.quick else 7)),
        (
            "meetings sweep",
            lambda: meetings_sweep.run(
                channels=10 if args.quick else 50, repeats=3 if args.quick else 7
            ),
        ),
    ]
    if args.quick:  # it embeds the whole judged corpus: a minute, too long for a smoke run
        print("relevance: skipped with --quick (python -m bench.relevance)", file=sys.stderr)
    else:
        plan.append(("relevance", relevance_run))
    rows: list[Row] = []
    for name, bench in plan:
        started = time.perf_counter()
        print(f"… {name}", file=sys.stderr, flush=True)
        rows += [judged(row=row) for row in bench()]
        print(f"  {name} done in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    print(table(rows=rows))
    if judged_set:
        print(
            f"\nrelevance: {judged_set['papers']} papers, {judged_set['comments']} comments, "
            f"{judged_set['queries']} judged queries"
        )
        print(relevance.render(result=judged_set))
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(rows, indent=2) + "\n")
    print(f"\nWrote {args.json}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
