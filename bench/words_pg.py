"""Did you mean, on PostgreSQL: reading the archive's words near a misspelt query from the
kept table (paper_words, kept by triggers) against reading them with ts_stat from the papers
themselves, as the store did before; and what keeping the table costs an import.

    python -m bench.words_pg [--sizes 10000 100000] [--repeats 5]

Each size is a throwaway database on the local PostgreSQL (127.0.0.1:5432, database `test`'s
server), migrated to head, filled with bench/synthetic.py's papers (the search benchmark's
titles and 30–100-word abstracts), 1,000 papers a transaction by INSERT ... RETURNING, as the
importer writes them (SQLAlchemy sends multi-row statements); timed with the triggers and
again without them (dropped: the bare insert). The lookups are the store's own (`words_near`)
for two misspelt words ("pipline paralelism"), against the ts_stat statement the store ran
before for the same words.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import create_engine, insert, text

from bench import synthetic
from bench.stats import figure
from bot.db.database import Database
from bot.db.migrate import upgrade_url
from bot.db.schema import Base
from bot.domain import WorkspaceKey

SERVER = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
WORDS = ["pipline", "paralelism"]
BATCH = 1_000
ADDED = datetime(2026, 1, 1, tzinfo=UTC)
TS_STAT = (
    "SELECT word, ndoc FROM ts_stat('SELECT to_tsvector(''simple''::regconfig, "
    "coalesce(title, '''') || '' '' || coalesce(abstract, '''')) FROM papers "
    "WHERE workspace_id = ' || CAST(CAST(:ws AS integer) AS text)) "
    "WHERE (left(word, 1) = 'p' AND length(word) BETWEEN 5 AND 12)"
)


@contextmanager
def _database() -> Iterator[str]:
    """A throwaway database's URL, dropped on leaving."""
    name = f"paperclub_bench_words_{uuid.uuid4().hex[:8]}"
    admin = create_engine(SERVER, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
        yield SERVER.rsplit("/", 1)[0] + f"/{name}"
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def _fill(*, url: str, size: int, trigger: bool) -> float:
    """Seconds to insert `size` synthetic papers into a fresh migrated database (with the
    trigger kept, or dropped first)."""
    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            if not trigger:
                conn.execute(text("DROP TRIGGER paper_words_added ON papers"))
            conn.execute(
                text("INSERT INTO workspaces (id, platform, team) VALUES (1, 'slack', 'T1')")
            )
        rows = [
            {
                "id": i,
                "workspace_id": 1,
                "title": t,
                "authors": json.loads(a),
                "abstract": b,
                "fingerprint": f"f{i}",
                "source": "synthetic",
                "added_at": ADDED,
                "position": i,
                "status": "queued",
            }
            for i, t, a, b in synthetic.papers_chunk(start=0, count=size)
        ]
        table = Base.metadata.tables["papers"]
        started = time.perf_counter()
        for first in range(0, size, BATCH):  # a transaction a batch, as the importer commits
            with engine.begin() as conn:
                conn.execute(insert(table).returning(table.c.id), rows[first : first + BATCH])
        return time.perf_counter() - started
    finally:
        engine.dispose()


def run(*, sizes: list[int], repeats: int) -> list[dict[str, Any]]:
    """Per size: the lookup from the kept table against ts_stat's, and the import with the
    trigger against without, in milliseconds and seconds."""
    rows = []
    for size in sizes:
        with _database() as url:
            upgrade_url(url=url)
            kept_fill = _fill(url=url, size=size, trigger=True)
            database = Database(url=url)
            ours, theirs = [], []
            try:
                for _ in range(repeats):
                    started = time.perf_counter()
                    with database(write=False) as store:
                        found = store.words_near(words=WORDS, workspace=WorkspaceKey("slack", "T1"))
                    ours.append((time.perf_counter() - started) * 1000)
                    started = time.perf_counter()
                    with database.engine.connect() as conn:
                        read = conn.execute(text(TS_STAT), {"ws": 1}).all()
                    theirs.append((time.perf_counter() - started) * 1000)
                if not found or not read:
                    raise RuntimeError(f"no words near {WORDS} at {size:,}")
            finally:
                database.dispose()
        with _database() as url:
            upgrade_url(url=url)
            bare_fill = _fill(url=url, size=size, trigger=False)
        print(f"  {size:,}: import {kept_fill:.1f} s kept, {bare_fill:.1f} s bare", file=sys.stderr)
        rows.append(
            figure(
                name=f"did you mean on PostgreSQL, {size:,} papers",
                unit="ms",
                ours=ours,
                baseline="ts_stat over the papers",
                theirs=theirs,
            )
        )
        rows.append(
            figure(
                name=f"import into PostgreSQL keeping its words, {size:,} papers",
                unit="s",
                ours=[kept_fill],
                baseline="the same insert without the trigger",
                theirs=[bare_fill],
            )
        )
    return rows


def main(argv: list[str] | None = None) -> int:
    """Print the figures."""
    parser = argparse.ArgumentParser(prog="python -m bench.words_pg", description=__doc__)
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    for row in run(sizes=args.sizes, repeats=args.repeats):
        spread = f"({row['min']:.1f}–{row['max']:.1f})"
        print(
            f"{row['name']}: {row['median']:.1f} {row['unit']} {spread}; "
            f"{row['baseline']} {row['baseline_median']:.1f} ({row['baseline_min']:.1f}–"
            f"{row['baseline_max']:.1f}); ratio {row['ratio']:.2f}x"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
