"""Relevance: MRR and recall@5 of keyword (bm25), vector and hybrid search on the judged set.

    python -m bench.relevance [--json]

The corpus (tests/data/relevance/corpus_*.jsonl, 500+ fictional abstracts written for the
project) is imported into a fresh SQLite archive with the real import service and embedded by
the real embedder; each judged query (queries_*.jsonl: keyword, paraphrase, author and
misspelling) is searched three ways: `paperclub search` without the extra (bm25), the vector
ranking alone, and `paperclub search` with it (hybrid). MRR is the mean of 1/rank of the first
relevant paper (0 past the depth); recall@5 the share of relevant papers in the first five.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bot.db.database import Database
from bot.db.migrate import upgrade_url
from bot.domain import LOCAL, PaperDraft
from bot.services import embedding, importing, search
from bot.services.embedding import NO_SEMANTIC, SemanticExtra
from bot.services.telemetry import Telemetry

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "relevance"
DEPTH = 20  # the ranks read per query: MRR counts a first relevant paper up to here
KINDS = ("keyword", "paraphrase", "author", "misspelling")
ENGINES = ("bm25", "vectors", "hybrid")


def load() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The corpus and the judged queries, every part."""

    def read(pattern: str) -> list[dict[str, Any]]:
        """Every line of the matching files, in name order."""
        return [
            json.loads(line)
            for path in sorted(DATA.glob(pattern))
            for line in path.read_text("utf-8").splitlines()
            if line.strip()
        ]

    return read("corpus_*.jsonl"), read("queries_*.jsonl")


def _scores(*, ranking: list[str], relevant: set[str]) -> tuple[float, float]:
    """(reciprocal rank of the first relevant, recall in the first five)."""
    first = next((n for n, key in enumerate(ranking, start=1) if key in relevant), None)
    top5 = len(relevant & set(ranking[:5])) / len(relevant)
    return (1.0 / first if first else 0.0), top5


def run(*, progress: bool = True) -> dict[str, Any]:
    """Build the archive, run every query three ways, and score them per kind of query."""
    from bot.semantic.lazy import semantic_for

    index, why = semantic_for(enabled=True)
    if index is None:
        print(f"relevance: skipped, {why}", file=sys.stderr)
        return {}
    corpus, queries = load()
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'relevance.db'}"
        upgrade_url(url=url)
        database = Database(url=url)
        try:
            now = datetime(2026, 1, 1, tzinfo=UTC)
            drafts = [
                PaperDraft(
                    title=p["title"],
                    abstract=p["abstract"],
                    authors=tuple(p["authors"]),
                    origin=f"corpus:{p['id']}",
                )
                for p in corpus
            ]
            importing.import_drafts(uow=database, drafts=drafts, now=now, workspace=LOCAL)
            with database(write=False) as store:
                ids = {
                    paper.id: paper.title
                    for paper in store.papers_to_embed(model="-", limit=len(corpus))
                }
            by_title = {p["title"]: p["id"] for p in corpus}
            key_of = {pid: by_title[title] for pid, title in ids.items()}
            started = time.perf_counter()

            def shown(done: int, total: int) -> None:
                """Embedding progress on stderr."""
                if progress and (done % 64 == 0 or done == total):
                    print(f"  embedded {done}/{total}", file=sys.stderr, flush=True)

            embedding.embed_pending(uow=database, semantic=index, now=lambda: now, progress=shown)
            embed_seconds = time.perf_counter() - started
            per: dict[tuple[str, str], list[tuple[float, float]]] = defaultdict(list)
            for query in queries:
                relevant = set(query["relevant"])
                for engine in ENGINES:
                    ranking = _rank(
                        database=database, index=index, engine=engine, text=query["query"]
                    )
                    keys = [key_of[pid] for pid in ranking]
                    per[(engine, query["kind"])].append(_scores(ranking=keys, relevant=relevant))
        finally:
            database.dispose()
    table = {
        engine: {
            kind: {
                "mrr": statistics.mean(s[0] for s in per[(engine, kind)]),
                "recall@5": statistics.mean(s[1] for s in per[(engine, kind)]),
                "queries": len(per[(engine, kind)]),
            }
            for kind in KINDS
            if per[(engine, kind)]
        }
        for engine in ENGINES
    }
    return {
        "papers": len(corpus),
        "queries": len(queries),
        "embed_seconds": embed_seconds,
        "table": table,
    }


def _rank(*, database: Database, index: Any, engine: str, text: str) -> list[int]:
    """The first DEPTH paper ids one engine ranks for a query."""
    if engine == "vectors":
        with database(write=False) as store:
            wait = index.start_nearest(store=store, workspace=LOCAL, text=text, k=DEPTH)
            return [n.paper_id for n in wait()]
    extra = SemanticExtra(index=index) if engine == "hybrid" else NO_SEMANTIC
    result = search.search(
        uow=database,
        text=text,
        viewer=None,
        semantic_extra=extra,
        telemetry=Telemetry(),
        limit=DEPTH,
        workspace=LOCAL,
    )
    return [hit.paper.id for hit in result.page.hits]


def render(*, result: dict[str, Any]) -> str:
    """The table: per kind of query, MRR and recall@5 of each engine."""
    head = f"{'queries':<16}" + "".join(f"{e + ' MRR':>13}{e + ' R@5':>13}" for e in ENGINES)
    lines = [head, "-" * len(head)]
    kinds = [k for k in KINDS if k in result["table"]["bm25"]]
    for kind in kinds:
        count = result["table"]["bm25"][kind]["queries"]
        cells = "".join(
            f"{result['table'][e][kind]['mrr']:>13.3f}{result['table'][e][kind]['recall@5']:>13.3f}"
            for e in ENGINES
        )
        lines.append(f"{kind + f' ({count})':<16}{cells}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Print the relevance table (or JSON)."""
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
            f"{result['papers']} papers, {result['queries']} judged queries; "
            f"embedded in {result['embed_seconds']:.1f} s"
        )
        print(render(result=result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
