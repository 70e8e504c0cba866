"""Search benchmark: our search against a bare FTS5 query building the same page, and against a
LIKE scan.

    python -m bench.search --sizes 10000,100000,1000000

Archives of synthetic papers (bench/synthetic.py) are built once per size into SQLite files
migrated with the real schema (comments go through the FTS triggers, papers through one FTS5
'rebuild') and cached in the temp folder. Each query is timed `repeat` times, ours and the
bare query in turns; the table shows, per size, the median over queries of each query's
median, the fastest and slowest query, and the ratios (worst single query in brackets).

Ours searches as a channel does (with a viewer, so the privacy rule is applied) and renders
its page of five. The bare query (bench/search_bare.py says exactly what it does) is one plain
sqlite3 statement doing the same work: papers and comments matched and scored as ours does,
the total, the five best with their post, votes, comment count and the same snippet() calls
(and, as ours, run again for the related papers of a query of several words, or with any
word when no paper has them all); it returns the same page. It
and the LIKE scan run on the very connection ours uses, inside the same read transaction: the
same pragmas (64 MB page cache), the same warm cache, no reconnects.

    python -m bench.search --hybrid --sizes 100000

With --hybrid (the semantic extra): the search service with the extra installed (keyword and
vector rankings fused) against the same service without it (bm25 alone), on a copy of the
archive with a vector a paper (build_vectors says which), and the memory the vectors take.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import shutil
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine

from bench import synthetic
from bench.search_bare import bare as bare_page
from bot.db.author_index import fold_names
from bot.db.database import Database
from bot.db.migrate import upgrade_url
from bot.domain import HIGHLIGHT_CLOSE, HIGHLIGHT_OPEN, ChannelKey, SearchPage
from bot.search_query import SOME, fts5_match, fts5_words, parse_query, related_words
from bot.semantic.encoder import DIMENSIONS, SemanticUnavailable, load_encoder
from bot.services import search as service
from bot.services.embedding import NO_SEMANTIC, SemanticExtra
from bot.services.telemetry import Telemetry

VERSION = 8  # bump when synthetic.py or the schema changes, so cached archives are rebuilt
CACHE = Path(tempfile.gettempdir()) / "paperclub-bench"
QUERIES = (
    "pipeline parallelism",
    '"pipeline bubbles"',
    "large language models inference",
    "tensor parallel",
    '"mixture of experts" routing',
    "gradient compression bandwidth",
    "federated privacy -differential",
    "graph neural networks",
    "speculative decoding latency",
    "recommendation embedding",
    "persistent homology",
    "quantization int8",
    "diffusion",
    "stragglers heterogeneous",
    "checkpointing offloading",
    "kernel fusion compiler",
    "retrieval",
    "contrastive pretraining",
    "bayesian calibration",
    "attention sparse -dense",
)
# The synthetic archive's first channel (public, like all of them), as a channel searches.
VIEWER = ChannelKey(platform="slack", workspace="T1", channel="C0000001")
# Every synthetic paper belongs to the viewer's workspace, row 1.
WORKSPACE_SQL = "INSERT INTO workspaces (id, platform, team) VALUES (1, 'slack', 'T1')"
PAPER_SQL = (
    "INSERT INTO papers (id, workspace_id, title, authors, abstract, fingerprint, source,"
    " added_at, position, status) VALUES (?, 1, ?, ?, ?, ?, 'synthetic',"
    " '2026-01-01 00:00:00.000000', ?, ?)"
)
ACTIVITY_SQL = {
    "channels": "INSERT INTO channels (id, platform, workspace, external_id, post_time, timezone,"
    " weekdays, paused, empty_notice_sent, private) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, FALSE)",
    "posts": "INSERT INTO posts (id, paper_id, channel_id, local_date, state, message_id,"
    " permalink, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    "votes": "INSERT INTO votes (id, post_id, user_id, value, updated_at, source)"
    " VALUES (?, ?, ?, ?, ?, 'button')",
    "comments": "INSERT INTO comments (id, post_id, channel_id, user_id, message_id, text,"
    " created_at, deleted) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
}
VECTOR_SQL = (
    "INSERT INTO embeddings (paper_id, model, vector, created_at)"
    " VALUES (?, ?, ?, '2026-01-01 00:00:00.000000')"
)
VECTOR_CHUNK = 10_000  # rows of random floats drawn at a time: 15 MB, not 1.5 GB at 1M papers


def _papers(span: tuple[int, int]) -> list[tuple[object, ...]]:
    """One chunk of paper rows (runs in a worker process)."""
    return synthetic.papers_chunk(start=span[0], count=span[1])


def build(*, size: int, log: Callable[[str], None] = print) -> Path:
    """The archive of `size` papers, built unless cached; returns its path."""
    path = CACHE / f"archive-{size}-v{VERSION}.db"
    if path.exists():
        return path
    CACHE.mkdir(parents=True, exist_ok=True)
    building = path.with_suffix(".building")
    for leftover in CACHE.glob(building.name + "*"):
        leftover.unlink()
    started = time.perf_counter()
    upgrade_url(url=f"sqlite:///{building}")
    db = sqlite3.connect(building, isolation_level=None)
    # A throwaway file: no journal, no fsync; the real pragmas come back at the end.
    for pragma in ("journal_mode=OFF", "synchronous=OFF", "cache_size=-1000000", "temp_store=2"):
        db.execute(f"PRAGMA {pragma}")
    acts = synthetic.activity(papers=size)
    posted = {row[1] for row in acts.posts}
    # Indexing row by row through the trigger is ~2x slower than one 'rebuild' at the end;
    # the trigger is put back exactly as the migration wrote it. Comments keep theirs: a
    # rebuild would index the deleted ones too.
    (trigger,) = db.execute("SELECT sql FROM sqlite_master WHERE name = 'papers_fts_ai'").fetchone()
    db.execute("DROP TRIGGER papers_fts_ai")
    db.execute("BEGIN")
    db.execute(WORKSPACE_SQL)
    # Two cores: workers write the text while this process feeds SQLite.
    synthetic.stream()  # drawn once, inherited by the forked workers
    with multiprocessing.get_context("fork").Pool(max(1, (os.cpu_count() or 2) - 1)) as pool:
        for rows in pool.imap(_papers, synthetic.chunks(total=size)):
            db.executemany(
                PAPER_SQL,
                [
                    (
                        *row,
                        f"syn-{row[0]}",
                        row[0],
                        "posted"
                        if row[0] in posted
                        else "skipped"
                        if row[0] % 50 == 0
                        else "queued",
                    )
                    for row in rows
                ],
            )
            if rows[-1][0] % 100_000 == 0 or rows[-1][0] == size:
                log(f"  {size:,}: {rows[-1][0]:,} papers, {time.perf_counter() - started:.0f}s")
    for table, sql in ACTIVITY_SQL.items():
        db.executemany(sql, getattr(acts, table))
    db.execute("COMMIT")
    log(f"  {size:,}: indexing, {time.perf_counter() - started:.0f}s")
    db.execute("INSERT INTO papers_fts(papers_fts) VALUES ('rebuild')")
    db.execute(trigger)
    log(f"  {size:,}: merging the index, {time.perf_counter() - started:.0f}s")
    # One b-tree per index, as a long-lived archive would have after automerges.
    for table in ("papers_fts", "comments_fts"):
        db.execute(f"INSERT INTO {table}({table}) VALUES ('optimize')")
    db.execute("PRAGMA journal_mode=WAL")
    db.close()
    # The triggers listed each paper's authors; the names are folded as the write path would
    # have folded them (bot/db/author_index.py), so that names forgiven read the index alone.
    engine = create_engine(f"sqlite:///{building}")
    with engine.begin() as connection:
        fold_names(connection=connection)
    engine.dispose()
    building.rename(path)
    log(f"  built {size:,} papers in {time.perf_counter() - started:.0f}s -> {path}")
    return path


def build_vectors(*, size: int, model: str, log: Callable[[str], None] = print) -> Path:
    """The archive of `size` papers with a seeded random unit vector of `model` a paper, copied
    once beside it (the archive itself is left as it is); returns the copy's path."""
    # Random, not the model's: embedding 100,000 synthetic abstracts would take half an hour,
    # and scoring costs the same whatever the values. But the service drops neighbours under
    # its FLOOR, and random vectors all are (|cos| < 0.25 in 384 dimensions): the admitted
    # query and meaning-only hits would never run. So, as in a real archive, each of QUERIES
    # gets DEPTH random papers close to it (cos 0.35-0.75), mostly ones its words do not find.
    import numpy as np

    path = CACHE / f"archive-{size}-v{VERSION}-vectors.db"
    if path.exists():
        return path
    source = build(size=size, log=log)
    building = path.with_suffix(".building")
    for leftover in CACHE.glob(building.name + "*"):
        leftover.unlink()
    started = time.perf_counter()
    shutil.copyfile(source, building)  # closed after its build: no WAL file to carry along
    upgrade_url(url=f"sqlite:///{building}")  # an archive cached before 0008 has no embeddings
    wanted = [" ".join(parse_query(text=text).positives) for text in QUERIES]
    near = load_encoder().encode(texts=wanted)  # what the index encodes: the query's positives
    db = sqlite3.connect(building, isolation_level=None)
    db.execute("PRAGMA synchronous=OFF")
    ids = [row[0] for row in db.execute("SELECT id FROM papers ORDER BY id")]
    rng = np.random.default_rng(synthetic.SEED)
    planted = rng.choice(len(ids), size=(len(QUERIES), service.DEPTH), replace=False)
    db.execute("BEGIN")
    for start in range(0, len(ids), VECTOR_CHUNK):
        chunk = ids[start : start + VECTOR_CHUNK]
        vectors = rng.standard_normal((len(chunk), DIMENSIONS), dtype=np.float32)
        for query, picked in zip(near, planted, strict=True):
            mine = picked[(picked >= start) & (picked < start + len(chunk))] - start
            if len(mine):
                # cos w to the query: w of it plus the rest of the random vector orthogonal to it
                other = vectors[mine] - np.outer(vectors[mine] @ query, query)
                other /= np.linalg.norm(other, axis=1, keepdims=True)
                w = rng.uniform(0.35, 0.75, size=(len(mine), 1)).astype(np.float32)
                vectors[mine] = w * query + np.sqrt(1 - w * w) * other
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        blobs = zip(chunk, (vector.tobytes() for vector in vectors), strict=True)
        db.executemany(VECTOR_SQL, [(paper_id, model, blob) for paper_id, blob in blobs])
    db.execute("COMMIT")
    db.close()
    building.rename(path)
    log(f"  {size:,}: vectors in {time.perf_counter() - started:.0f}s -> {path}")
    return path


def render(*, page: SearchPage) -> str:
    """Hits as plain text, the way a reply would list them."""
    lines = [f"{page.total} papers"]
    for hit in page.hits:
        snippet = hit.snippet.replace(HIGHLIGHT_OPEN, "*").replace(HIGHLIGHT_CLOSE, "*")
        where = f"{hit.channel} {hit.post_date}" if hit.post_date else "not posted yet"
        lines.append(f"• {hit.paper.title} ({', '.join(hit.paper.authors[:3])}) {where}")
        lines.append(f"  👍 {hit.votes.up} 👎 {hit.votes.down} 💬 {hit.comments}  {snippet}")
    return "\n".join(lines)


def _time(
    *fns: Callable[[], Any], repeat: int, before: Callable[[], Any] = lambda: None
) -> list[float]:
    """Median wall time of each fn in milliseconds, run in turns so that load on a shared
    machine hits them alike; `before` runs untimed before every call."""
    times: list[list[float]] = [[] for _ in fns]
    for _ in range(repeat):
        for fn, bucket in zip(fns, times, strict=True):
            before()
            started = time.perf_counter()
            fn()
            bucket.append((time.perf_counter() - started) * 1000)
    return [statistics.median(bucket) for bucket in times]


def measure(*, size: int, repeat: int = 11, like_repeat: int = 3) -> dict[str, Any]:
    """Per-query median times of ours, the bare query and the LIKE scan on one archive."""
    path = build(size=size)
    database = Database(url=f"sqlite:///{path}")
    per_query = []
    with database(write=False) as store:
        # Our session's own sqlite3 connection: same pragmas, page cache and transaction.
        bare_db: sqlite3.Connection = store.session.connection().connection.driver_connection
        for text in QUERIES:
            query = parse_query(text=text)
            expression = fts5_match(query=query)
            # As ours: related papers after those with every word; any of the words when no
            # paper has them all, for a query of several.
            relaxed = fts5_match(query=query, any_term=True) if len(query.positives) > 1 else None
            some = fts5_words(query=query, words=SOME) if related_words(query=query) else None
            words = [f"%{word}%" for word in query.positives]
            like = " AND ".join(["(title LIKE ? OR abstract LIKE ?)"] * len(words))
            args = [w for word in words for w in (word, word)]

            def ours(text: str = text) -> str:
                """Parse, search, render."""
                query = parse_query(text=text)
                page = store.search(
                    query=query, limit=5, offset=0, viewer=VIEWER, workspace=VIEWER.workspace_key
                )
                return render(page=page)

            def bare(
                expression: str | None = expression,
                relaxed: str | None = relaxed,
                some: str | None = some,
            ) -> list[Any]:
                """The bare query: the same page, one plain statement a part."""
                return bare_page(db=bare_db, match=expression, any_match=relaxed, some_match=some)

            def scan(like: str = like, args: list[str] = args) -> list[Any]:
                """A LIKE scan: the total and the first five."""
                bare_db.execute(f"SELECT count(*) FROM papers WHERE {like}", args).fetchall()
                first = bare_db.execute(f"SELECT id FROM papers WHERE {like} LIMIT 5", args)
                return first.fetchall()

            ours(), bare()  # warm the page cache; the scan reads every page as it goes
            if like_repeat > 1:
                scan()
            ours_ms, bare_ms = _time(ours, bare, repeat=repeat)
            per_query.append(
                {
                    "query": text,
                    "ours_ms": ours_ms,
                    "bare_ms": bare_ms,
                    "like_ms": _time(scan, repeat=like_repeat)[0],
                }
            )
    database.dispose()
    return {"size": size, "queries": per_query, **_summary(per_query=per_query)}


def _rss_mib() -> float:
    """This process's resident memory, from /proc (like bench/startup.py's)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS for this process")


def measure_hybrid(*, size: int, repeat: int = 11) -> dict[str, Any]:
    """Per-query median times of the search service with the extra (hybrid) and without it
    (bm25 alone), its first search and its memory; SemanticUnavailable without the extra."""
    # The archive's vectors are seeded random (build_vectors): scoring costs the same whatever
    # their values, and every timed query is encoded by the real model.
    from bot.semantic.lazy import semantic_for

    semantic, why = semantic_for(enabled=True)
    if semantic is None:
        raise SemanticUnavailable(why)
    path = build_vectors(size=size, model=semantic.model)
    database = Database(url=f"sqlite:///{path}")
    with database(write=False) as store:
        vectors = store.vector_version(workspace=VIEWER.workspace_key, model=semantic.model)[0]

    def forget() -> None:
        """Drop the index's cached query vectors, so that each timed call encodes its query."""
        semantic.index()._queries.clear()

    extra, quiet = SemanticExtra(index=semantic), Telemetry()

    def bm25(text: str) -> service.SearchResult:
        """The service as a plain install runs it."""
        return service.search(
            uow=database,
            text=text,
            viewer=VIEWER,
            semantic_extra=NO_SEMANTIC,
            telemetry=quiet,
            limit=5,
        )

    def hybrid(text: str) -> service.SearchResult:
        """The service with the extra installed."""
        return service.search(
            uow=database, text=text, viewer=VIEWER, semantic_extra=extra, telemetry=quiet, limit=5
        )

    per_query: list[dict[str, Any]] = []
    try:
        bm25(QUERIES[0])  # the keyword path warm, so that the first search below is the extra's
        # In the run that builds the copy, numpy and the model were loaded for it already: that
        # run's first search is cheaper and its RSS growth smaller than a bot's.
        rss_before = _rss_mib()
        started = time.perf_counter()
        hybrid(QUERIES[0])  # loads the model and reads every vector into the matrix
        first_ms = (time.perf_counter() - started) * 1000
        rss_after = _rss_mib()
        for text in QUERIES:
            bm25(text)
            forget()
            found = hybrid(text).explained
            bm25_ms, hybrid_ms = _time(
                partial(bm25, text), partial(hybrid, text), repeat=repeat, before=forget
            )
            per_query.append(
                {
                    "query": text,
                    "bm25_ms": bm25_ms,
                    "hybrid_ms": hybrid_ms,
                    # hits on the page by meaning alone: the admitted query and their snippets ran
                    "by_meaning": sum(item.keyword_rank is None for item in found),
                }
            )
    finally:
        database.dispose()
    summary = {
        key: _spread(values=[row[key] for row in per_query]) for key in ("bm25_ms", "hybrid_ms")
    }
    return {
        "size": size,
        "queries": per_query,
        **summary,
        "hybrid_over_bm25": summary["hybrid_ms"]["median"] / summary["bm25_ms"]["median"],
        "hybrid_over_bm25_worst": max(row["hybrid_ms"] / row["bm25_ms"] for row in per_query),
        "first_search_ms": first_ms,
        "vectors": vectors,
        "vectors_mib": vectors * DIMENSIONS * 4 / 2**20,  # the float32 matrix the index holds
        "rss_before_mib": rss_before,
        "rss_after_mib": rss_after,
        # not the matrix alone: the libraries and model (~190 MiB), the SQLite page cache the
        # read filled, and what the read's rows left in malloc
        "rss_growth_mib": rss_after - rss_before,
    }


def _spread(*, values: list[float]) -> dict[str, float]:
    """Median, min and max."""
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def _summary(*, per_query: list[dict[str, Any]]) -> dict[str, Any]:
    """Median, min and max over queries for each method, and the ratios."""
    out: dict[str, Any] = {}
    for key in ("ours_ms", "bare_ms", "like_ms"):
        out[key] = _spread(values=[row[key] for row in per_query])
    ratios = [row["ours_ms"] / row["bare_ms"] for row in per_query]
    out["ours_over_bare"] = out["ours_ms"]["median"] / out["bare_ms"]["median"]
    out["ours_over_bare_worst"] = max(ratios)
    out["ours_over_like"] = out["ours_ms"]["median"] / out["like_ms"]["median"]
    return out


def run(sizes: list[int]) -> list[dict[str, Any]]:
    """Build (or reuse) each archive, measure it, and return the figures."""
    results = []
    for size in sizes:
        results.append(measure(size=size, like_repeat=1 if size >= 1_000_000 else 3))
    return results


def cell(stats: dict[str, float]) -> str:
    """median (min–max), one table cell."""
    return f"{stats['median']:8.2f} ({stats['min']:.2f}–{stats['max']:.2f})"


def table(*, results: list[dict[str, Any]]) -> str:
    """The side-by-side table."""

    head = (
        f"{'papers':>9}  {'ours ms':>24}  {'bare FTS5 ms':>24}  {'LIKE ms':>26}  "
        "ours/bare (worst)  ours/LIKE"
    )
    rows = [head, "-" * len(head)]
    for r in results:
        worst = f"{r['ours_over_bare']:9.2f} ({r['ours_over_bare_worst']:.2f})"
        rows.append(
            f"{r['size']:>9,}  {cell(r['ours_ms']):>24}  {cell(r['bare_ms']):>24}  "
            f"{cell(r['like_ms']):>26}  {worst:>17}  {r['ours_over_like']:9.2f}"
        )
    return "\n".join(rows)


def hybrid_table(*, results: list[dict[str, Any]]) -> str:
    """Hybrid against bm25 alone, the first search with the extra, and its memory."""

    head = (
        f"{'papers':>9}  {'hybrid ms':>24}  {'bm25 alone ms':>24}  hybrid/bm25 (worst)  "
        "first search ms  vectors MiB  RSS growth MiB"
    )
    rows = [head, "-" * len(head)]
    for r in results:
        worst = f"{r['hybrid_over_bm25']:9.2f} ({r['hybrid_over_bm25_worst']:.2f})"
        rows.append(
            f"{r['size']:>9,}  {cell(r['hybrid_ms']):>24}  {cell(r['bm25_ms']):>24}  "
            f"{worst:>19}  {r['first_search_ms']:15,.0f}  {r['vectors_mib']:11,.1f}  "
            f"{r['rss_growth_mib']:14,.1f}"
        )
    return "\n".join(rows)


def memory_line(*, result: dict[str, Any]) -> str:
    """What the vectors of one archive take, in a sentence."""
    return (
        f"{result['vectors']:,} vectors: {result['vectors_mib']:,.1f} MiB as float32; "
        f"RSS {result['rss_before_mib']:,.0f} -> {result['rss_after_mib']:,.0f} MiB "
        f"(+{result['rss_growth_mib']:,.0f}) over the first search with the extra, which also "
        f"loads the model ({result['first_search_ms']:,.0f} ms)"
    )


def main(argv: list[str] | None = None) -> None:
    """Command line: --sizes 10000,100000,1000000 [--per-query] [--hybrid]."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000,1000000")
    parser.add_argument("--per-query", action="store_true", help="also print every query")
    parser.add_argument(
        "--hybrid",
        action="store_true",
        help="the service with the semantic extra against bm25 alone",
    )
    args = parser.parse_args(argv)
    if args.hybrid:
        hybrid = [measure_hybrid(size=int(size)) for size in args.sizes.split(",")]
        if args.per_query:
            for r in hybrid:
                for q in r["queries"]:
                    print(
                        f"{r['size']:>9,}  {q['query']:<36} hybrid {q['hybrid_ms']:8.2f}  "
                        f"bm25 {q['bm25_ms']:8.2f}  by meaning {q['by_meaning']}"
                    )
        print(hybrid_table(results=hybrid))
        for r in hybrid:
            print(f"{r['size']:>9,}: {memory_line(result=r)}")
        return
    results = run([int(size) for size in args.sizes.split(",")])
    if args.per_query:
        for r in results:
            for q in r["queries"]:
                print(
                    f"{r['size']:>9,}  {q['query']:<36} ours {q['ours_ms']:8.2f}  "
                    f"bare {q['bare_ms']:8.2f}  like {q['like_ms']:9.2f}"
                )
    print(table(results=results))


if __name__ == "__main__":
    main()
