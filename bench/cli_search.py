"""`paperclub search` as a person runs it: from spawning the process to its exit, against a
bare process that opens the same archive with sqlite3, runs the same full-text query and
prints the rows (issue 34: a fast CLI, ≤ 1.5x of it).

    python -m bench.cli_search [--size 10000] [--repeats 11]

Both sides are started the same way (the same interpreter, environment, working directory,
`python -c CODE ARGS`), on a copy of bench/search.py's synthetic archive, keyword only (no
semantic extra). Ours answers through the search service and prints its page of 10; the bare
process matches papers and comments with FTS5 (the MATCH string ours builds for the query,
bm25 with our column weights, a snippet a paper) and prints the ten best. Our package is
byte-compiled first, as `pip install` compiles it (see bench/startup.py). The two sides are
interleaved, so that load on the machine falls on both alike.
"""

from __future__ import annotations

import argparse
import compileall
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench import search
from bench.stats import figure
from bot.search_query import fts5_match, parse_query

ROOT = Path(__file__).resolve().parents[1]
OURS = "import sys; from bot.__main__ import main; sys.exit(main())"  # as the paperclub script
QUERY = "pipeline parallelism"
LIMIT = 10
BARE = (
    "import sqlite3, sys\n"
    "db = sqlite3.connect(sys.argv[1])\n"
    "papers = db.execute(\n"
    "    'SELECT rowid, title, snippet(papers_fts, 2, \\'»\\', \\'«\\', \\'…\\', 24) '\n"
    "    'FROM papers_fts WHERE papers_fts MATCH ? '\n"
    "    'ORDER BY bm25(papers_fts, 10.0, 5.0, 1.0) LIMIT ?', (sys.argv[2], int(sys.argv[3]))\n"
    ").fetchall()\n"
    "comments = db.execute(\n"
    "    'SELECT rowid FROM comments_fts WHERE comments_fts MATCH ? '\n"
    "    'ORDER BY bm25(comments_fts) LIMIT ?', (sys.argv[2], int(sys.argv[3]))\n"
    ").fetchall()\n"
    "for row in papers:\n"
    "    print(*row)\n"
    "print(len(comments), 'comments')\n"
)


def _timed(*, argv: list[str], env: dict[str, str], cwd: Path) -> tuple[float, str]:
    """Seconds from spawn to exit, and what the process printed; it must succeed."""
    start = time.perf_counter()
    done = subprocess.run(
        argv, env=env, cwd=cwd, stdin=subprocess.DEVNULL, capture_output=True, text=True
    )
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"{argv[2][:40]!r} failed:\n{done.stderr[-2000:]}")
    return elapsed, done.stdout


def run(*, size: int = 10_000, repeats: int = 11) -> list[dict[str, Any]]:
    """The latency of `paperclub search` against the bare query's process, in milliseconds:
    median, min and max of `repeats` runs each (one untimed run each first: the OS's file
    cache warmed for both)."""
    compileall.compile_dir(ROOT / "bot", quiet=1)
    archive = search.build(size=size, log=lambda line: print(line, file=sys.stderr))
    ours: list[float] = []
    bare: list[float] = []
    with tempfile.TemporaryDirectory(prefix="paperclub-cli-search-") as tmp:
        path = Path(tmp) / "club.db"
        shutil.copyfile(archive, path)
        env = {k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "PAPERCLUB_"))}
        env |= {"PYTHONPATH": str(ROOT), "PAPERCLUB_DATABASE_URL": f"sqlite:///{path}"}
        match = fts5_match(query=parse_query(text=QUERY), any_term=False)
        assert match is not None  # the query has words
        our_argv = [sys.executable, "-c", OURS, "search", QUERY, "--limit", str(LIMIT)]
        bare_argv = [sys.executable, "-c", BARE, str(path), match, str(LIMIT)]
        _, said = _timed(argv=our_argv, env=env, cwd=Path(tmp))
        _, listed = _timed(argv=bare_argv, env=env, cwd=Path(tmp))
        if "matches for" not in said or len(listed.splitlines()) != LIMIT + 1:
            raise RuntimeError(f"the two sides did not both find {QUERY!r}:\n{said}\n{listed}")
        for _ in range(repeats):
            ours.append(_timed(argv=our_argv, env=env, cwd=Path(tmp))[0] * 1000)
            bare.append(_timed(argv=bare_argv, env=env, cwd=Path(tmp))[0] * 1000)
    return [
        figure(
            name=f"CLI search, {size:,} papers",
            unit="ms",
            ours=ours,
            baseline="bare sqlite3 process",
            theirs=bare,
        )
    ]


def main(argv: list[str] | None = None) -> int:
    """Print the figure."""
    parser = argparse.ArgumentParser(prog="python -m bench.cli_search")
    parser.add_argument("--size", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=11)
    args = parser.parse_args(argv)
    for row in run(size=args.size, repeats=args.repeats):
        print(
            f"{row['name']}: {row['median']:.0f} ms ({row['min']:.0f}–{row['max']:.0f}); "
            f"bare {row['baseline_median']:.0f} ms ({row['baseline_min']:.0f}–"
            f"{row['baseline_max']:.0f}); ratio {row['ratio']:.1f}x"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
