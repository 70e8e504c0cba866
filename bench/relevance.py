"""Relevance: MRR, recall@5 and nDCG@10 of our search and of bare baselines on the judged set.

    python -m bench.relevance [--json]

The judged set (tests/data/relevance/, written for the project): 500+ fictional abstracts
(corpus_*.jsonl), comments said in their threads (comments_*.jsonl) and judged queries
(queries_*.jsonl) of six kinds: keyword, paraphrase, author, misspelling, comment (the answer
is a word said only in a thread) and author-typo (a name with a typo, without its accents, or
with initials). The corpus and comments are loaded into a fresh SQLite archive by the real
import and comment services (bench/relevance_data.py) and embedded by the real embedder.

Each query is ranked four ways in the same run: `keyword`, as `paperclub search` searches
without the semantic extra (services.search_spelled.forgiving_search: names forgiven, a query
that finds nothing respelled); `hybrid`, the same with the extra; `bare bm25`, plain FTS5
porter bm25 over title, abstract, authors and comments with the words OR'ed
(bench/relevance_bare.py); `bare vectors`, the model's nearest neighbours alone.

MRR is the mean of 1/rank of the first relevant paper (0 past DEPTH); R@5 the share of the
relevant papers in the first five; nDCG@10 the discounted gain of the first ten (a relevant
paper gains 1, others 0) over the best possible.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from bench.relevance_bare import BareBm25
from bench.relevance_data import NOW, WORKSPACE, load_archive, read
from bot.db.database import Database
from bot.db.migrate import upgrade_url
from bot.services import embedding
from bot.services.embedding import NO_SEMANTIC, SemanticExtra
from bot.services.search_spelled import forgiving_search
from bot.services.telemetry import Telemetry

DEPTH = 20  # the ranks read per query: MRR counts a first relevant paper up to here
KINDS = ("keyword", "paraphrase", "author", "misspelling", "comment", "author-typo")
ALL = "all"
ENGINES = ("keyword", "hybrid", "bare bm25", "bare vectors")
METRICS = (("mrr", "MRR"), ("recall@5", "R@5"), ("ndcg@10", "nDCG@10"))


def load() -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]]:
    """The corpus, the comments and the judged queries, every part."""
    return read("corpus_*.jsonl"), read("comments_*.jsonl"), read("queries_*.jsonl")


def scores(*, ranking: list[str], relevant: set[str]) -> dict[str, float]:
    """One query's reciprocal rank, recall in the first five and nDCG@10."""
    first = next((n for n, key in enumerate(ranking, start=1) if key in relevant), None)
    gain = sum(1 / math.log2(n + 1) for n, key in enumerate(ranking[:10], 1) if key in relevant)
    best = sum(1 / math.log2(n + 1) for n in range(1, min(len(relevant), 10) + 1))
    return {
        "mrr": 1.0 / first if first else 0.0,
        "recall@5": len(relevant & set(ranking[:5])) / len(relevant),
        "ndcg@10": gain / best,
    }


def run(*, progress: bool = True) -> dict[str, Any]:
    """Build the archive, rank every query four ways, and score them per kind of query."""
    from bot.semantic.lazy import semantic_for

    index, why = semantic_for(enabled=True)
    if index is None:
        print(f"relevance: skipped, {why}", file=sys.stderr)
        return {}
    corpus, said, queries = load()
    bare = BareBm25(corpus=corpus, said=said)
    per: dict[tuple[str, str], list[dict[str, float]]] = defaultdict(list)
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'relevance.db'}"
        upgrade_url(url=url)
        database = Database(url=url)
        try:
            key_of = load_archive(database=database, corpus=corpus, said=said)
            started = time.perf_counter()

            def shown(done: int, total: int) -> None:
                """Embedding progress on stderr."""
                if progress and (done % 64 == 0 or done == total):
                    print(f"  embedded {done}/{total}", file=sys.stderr, flush=True)

            embedding.embed_pending(uow=database, semantic=index, now=lambda: NOW, progress=shown)
            embed_seconds = time.perf_counter() - started
            for query in queries:
                relevant, text = set(query["relevant"]), query["query"]
                for engine in ENGINES:
                    if engine == "bare bm25":
                        keys = bare.rank(text=text, depth=DEPTH)
                    else:
                        ranked = _rank(database=database, index=index, engine=engine, text=text)
                        keys = [key_of[pid] for pid in ranked]
                    scored = scores(ranking=keys, relevant=relevant)
                    per[(engine, query["kind"])].append(scored)
                    per[(engine, ALL)].append(scored)
        finally:
            database.dispose()
            bare.close()
    table = {
        engine: {
            kind: _mean(scored=per[(engine, kind)]) for kind in (*KINDS, ALL) if per[(engine, kind)]
        }
        for engine in ENGINES
    }
    return {
        "papers": len(corpus),
        "comments": len(said),
        "queries": len(queries),
        "embed_seconds": embed_seconds,
        "table": table,
    }


def _mean(*, scored: list[dict[str, float]]) -> dict[str, float]:
    """Each metric's mean over some queries, and how many there were."""
    means = {name: statistics.mean(s[name] for s in scored) for name, _ in METRICS}
    return {**means, "queries": len(scored)}


def _rank(*, database: Database, index: Any, engine: str, text: str) -> list[int]:
    """The first DEPTH paper ids one of our engines ranks for a query."""
    if engine == "bare vectors":
        with database(write=False) as store:
            wait = index.start_nearest(store=store, workspace=WORKSPACE, text=text, k=DEPTH)
            return [n.paper_id for n in wait()]
    extra = SemanticExtra(index=index) if engine == "hybrid" else NO_SEMANTIC
    result = forgiving_search(
        uow=database,
        text=text,
        viewer=None,
        semantic_extra=extra,
        telemetry=Telemetry(),
        limit=DEPTH,
        workspace=WORKSPACE,
    )
    return [hit.paper.id for hit in result.page.hits]


def render(*, result: dict[str, Any]) -> str:
    """Per metric, a Markdown table: a row per kind of query (and all), a column per engine."""
    table = result["table"]
    kinds = [k for k in (*KINDS, ALL) if k in table[ENGINES[0]]]
    blocks = []
    for name, label in METRICS:
        lines = [
            f"| {label} | " + " | ".join(ENGINES) + " |",
            "|---" * (len(ENGINES) + 1) + "|",
        ]
        for kind in kinds:
            count = table[ENGINES[0]][kind]["queries"]
            cells = " | ".join(f"{table[e][kind][name]:.3f}" for e in ENGINES)
            lines.append(f"| {kind} ({count}) | {cells} |")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def main(argv: list[str] | None = None) -> int:
    """Print the relevance tables (or JSON)."""
    parser = argparse.ArgumentParser(prog="python -m bench.relevance", description=__doc__)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    result = run(progress=not args.json)
    if not result:
        return 0
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(
            f"{result['papers']} papers, {result['comments']} comments, {result['queries']} "
            f"judged queries; embedded in {result['embed_seconds']:.1f} s"
        )
        print(render(result=result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
