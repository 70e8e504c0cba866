"""Import of 100k papers: `paperclub import`'s service (dedupe keys, fingerprints, batched
transactions, FTS triggers) against a bare executemany of the same rows into the same schema.

    python -m bench.imports [--papers N] [--repeats R]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sqlite3
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bench.stats import figure
from bot.db.database import Database
from bot.db.migrate import upgrade_url
from bot.domain import PaperDraft
from bot.services import importing

WORDS = (
    "tensor pipeline parallel gradient sparse attention memory bandwidth straggler cluster "
    "schedule embedding kernel latency throughput model training inference quantized mixture "
    "expert routing collective allreduce checkpoint recovery failure batch token cache layer"
).split()
NOW = datetime(2026, 1, 1, tzinfo=UTC)


def drafts(*, count: int, seed: int = 11) -> list[PaperDraft]:
    """Distinct synthetic papers, a third with arXiv ids, like a real bibliography."""
    rng = random.Random(seed)
    out = []
    for n in range(count):
        title = " ".join(rng.choices(WORDS, k=8)).capitalize() + f" {n}"
        abstract = " ".join(rng.choices(WORDS, k=120)) + f" paper{n}."
        arxiv = f"{2000 + n // 10_000 % 100:04d}.{n % 100_000:05d}" if n % 3 == 0 else None
        authors = tuple(f"Author{rng.randrange(5000)} Name" for _ in range(3))
        out.append(
            PaperDraft(
                title=title,
                abstract=abstract,
                authors=authors,
                arxiv_id=arxiv,
                origin=f"bench.json:{n + 1}",
            )
        )
    return out


def _fresh(folder: Path, name: str) -> str:
    """A migrated SQLite file."""
    url = f"sqlite:///{folder / name}"
    upgrade_url(url=url)
    return url


def ours(*, papers: list[PaperDraft], folder: Path) -> float:
    """Seconds for the import service into a fresh database."""
    database = Database(url=_fresh(folder, "ours.db"))
    try:
        start = time.perf_counter()
        report = importing.import_drafts(uow=database, drafts=papers, now=NOW, added_by="bench")
        elapsed = time.perf_counter() - start
    finally:
        database.dispose()
    assert report.added == len(papers), report
    return elapsed


def bare(*, papers: list[PaperDraft], folder: Path) -> float:
    """Seconds for one executemany of the same rows (precomputed) into the same schema."""
    url = _fresh(folder, "bare.db")
    rows = [
        (
            p.title,
            json.dumps(list(p.authors)),
            p.abstract,
            p.url,
            p.arxiv_id,
            p.doi,
            hashlib.sha1(f"{p.title}|{p.abstract}".encode()).hexdigest(),
            p.origin,
            "bench",
            NOW.isoformat(),
            n,
            "queued",
        )
        for n, p in enumerate(papers, start=1)
    ]
    connection = sqlite3.connect(url.removeprefix("sqlite:///"))
    try:
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("PRAGMA synchronous=FULL")
        start = time.perf_counter()
        with connection:
            # The same one workspace row import_drafts makes on a new archive.
            connection.execute("INSERT INTO workspaces (platform, team) VALUES ('', '')")
            connection.executemany(
                "INSERT INTO papers (workspace_id, title, authors, abstract, url, arxiv_id, doi, "
                "fingerprint, source, added_by, added_at, position, status) "
                "VALUES (1,?,?,?,?,?,?,?,?,?,?,?,?)",
                rows,
            )
        return time.perf_counter() - start
    finally:
        connection.close()


def run(*, papers: int = 100_000, repeats: int = 3) -> list[dict[str, Any]]:
    """Median/min/max seconds of ours and bare, and the ratio of the medians."""
    corpus = drafts(count=papers)
    mine: list[float] = []
    theirs: list[float] = []
    for _ in range(repeats):
        with tempfile.TemporaryDirectory(prefix="paperclub-import-") as tmp:
            mine.append(ours(papers=corpus, folder=Path(tmp)))
            theirs.append(bare(papers=corpus, folder=Path(tmp)))
    return [
        figure(
            name=f"import {papers:,} papers",
            unit="s",
            ours=mine,
            baseline="bare executemany",
            theirs=theirs,
        )
    ]


def main(argv: list[str] | None = None) -> int:
    """Print the import figures."""
    parser = argparse.ArgumentParser(prog="python -m bench.imports")
    parser.add_argument("--papers", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    for row in run(papers=args.papers, repeats=args.repeats):
        print(
            f"{row['name']}: ours {row['median']:.2f} s ({row['min']:.2f}–{row['max']:.2f}), "
            f"bare {row['baseline_median']:.2f} s, ratio {row['ratio']:.2f}x"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
