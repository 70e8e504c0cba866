"""Search benchmark: our search against the bare FTS5 query it runs and against a LIKE scan.

    python -m bench.search --sizes 10000,100000,1000000

Archives of synthetic papers (bench/synthetic.py) are built once per size into SQLite files
migrated with the real schema (comments go through the FTS triggers, papers through one FTS5
'rebuild') and cached in the temp folder. Each query is timed `repeat` times, ours and the
bare query in turns; the table shows, per size, the median over queries of each query's
median, the fastest and slowest query, and the ratios (worst single query in brackets).

Ours searches as a channel does (with a viewer, so the privacy rule is applied). The bare
query and the LIKE scan run on the very connection ours uses, inside the same read
transaction: the same pragmas (64 MB page cache), the same warm cache, no reconnects.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench import synthetic
from bot.db.database import Database
from bot.db.migrate import upgrade_url
from bot.domain import HIGHLIGHT_CLOSE, HIGHLIGHT_OPEN, ChannelKey, SearchPage
from bot.search_query import fts5_match, parse_query

VERSION = 5  # bump when synthetic.py or the schema changes, so cached archives are rebuilt
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
BARE = (
    "SELECT rowid FROM papers_fts WHERE papers_fts MATCH ? "
    "ORDER BY bm25(papers_fts, 10.0, 5.0, 1.0) LIMIT 5"
)
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
                    (*row, f"syn-{row[0]}", row[0],
                     "posted" if row[0] in posted else "skipped" if row[0] % 50 == 0 else "queued")
                    for row in rows
                ],
            )  # fmt: skip
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
    building.rename(path)
    log(f"  built {size:,} papers in {time.perf_counter() - started:.0f}s -> {path}")
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


def _time(*fns: Callable[[], Any], repeat: int) -> list[float]:
    """Median wall time of each fn in milliseconds, run in turns so that load on a shared
    machine hits them alike."""
    times: list[list[float]] = [[] for _ in fns]
    for _ in range(repeat):
        for fn, bucket in zip(fns, times, strict=True):
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
            words = [f"%{word}%" for word in query.positives]
            like = " AND ".join(["(title LIKE ? OR abstract LIKE ?)"] * len(words))
            args = [w for word in words for w in (word, word)]

            def ours(text: str = text) -> str:
                """Parse, search, render."""
                query = parse_query(text=text)
                page = store.search(query=query, limit=5, offset=0, viewer=VIEWER,
                                    workspace=VIEWER.tenant)  # fmt: skip
                return render(page=page)

            def bare(expression: str | None = expression) -> list[Any]:
                """The bare FTS5 bm25 query."""
                return bare_db.execute(BARE, (expression,)).fetchall()

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


def _summary(*, per_query: list[dict[str, Any]]) -> dict[str, Any]:
    """Median, min and max over queries for each method, and the ratios."""
    out: dict[str, Any] = {}
    for key in ("ours_ms", "bare_ms", "like_ms"):
        values = [row[key] for row in per_query]
        out[key] = {"median": statistics.median(values), "min": min(values), "max": max(values)}
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


def table(*, results: list[dict[str, Any]]) -> str:
    """The side-by-side table."""

    def cell(stats: dict[str, float]) -> str:
        """median (min–max)."""
        return f"{stats['median']:8.2f} ({stats['min']:.2f}–{stats['max']:.2f})"

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


def main(argv: list[str] | None = None) -> None:
    """Command line: --sizes 10000,100000,1000000 [--per-query]."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000,1000000")
    parser.add_argument("--per-query", action="store_true", help="also print every query")
    args = parser.parse_args(argv)
    results = run([int(size) for size in args.sizes.split(",")])
    if args.per_query:
        for r in results:
            for q in r["queries"]:
                print(f"{r['size']:>9,}  {q['query']:<36} ours {q['ours_ms']:8.2f}  "
                      f"bare {q['bare_ms']:8.2f}  like {q['like_ms']:9.2f}")  # fmt: skip
    print(table(results=results))


if __name__ == "__main__":
    main()
