"""`paperclub search` as a person runs it: from spawning the process to its exit, against a
bare process that opens the same archive with sqlite3, runs the same full-text query and
prints the rows (issue 34: a fast CLI, ≤ 1.5x of it).

    python -m bench.cli_search [--size 10000] [--repeats 11]

Two figures: answered by a running bot on the same database (`paperclub run --mode console`,
started here on the archive, in a socket folder of the bench's own: bot/cli/warm_client.py),
and searched in the command's own process (`--here`: what it does when no bot runs).
Every side is started the same way (the same interpreter, environment, working directory,
`python -c CODE ARGS`), on a copy of bench/search.py's synthetic archive, keyword only
(PAPERCLUB_SEMANTIC=off). Ours answers through the search service and prints its page of 10;
the bare process matches papers and comments with FTS5 (the MATCH string ours builds for the
query, bm25 with our column weights, a snippet a paper) and prints the ten best. Our package is
byte-compiled first, as `pip install` compiles it (see bench/startup.py). The sides are
interleaved, so that load on the machine falls on all alike.
"""

from __future__ import annotations

import argparse
import compileall
import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
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
    """The latency of `paperclub search`, answered by a running bot and in its own process,
    against the bare query's process, in milliseconds: median, min and max of `repeats` runs
    each (one untimed run each first: the OS's file cache warmed for all)."""
    compileall.compile_dir(ROOT / "bot", quiet=1)
    archive = search.build(size=size, log=lambda line: print(line, file=sys.stderr))
    warm: list[float] = []
    cold: list[float] = []
    bare: list[float] = []
    with tempfile.TemporaryDirectory(prefix="paperclub-cli-search-") as tmp:
        path = Path(tmp) / "club.db"
        shutil.copyfile(archive, path)
        sockets = Path(tmp) / "run"
        sockets.mkdir(mode=0o700)
        env = {k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "PAPERCLUB_"))}
        env |= {
            "PYTHONPATH": str(ROOT),
            "PAPERCLUB_DATABASE_URL": f"sqlite:///{path}",
            "PAPERCLUB_SEMANTIC": "off",
            "XDG_RUNTIME_DIR": str(sockets),
        }
        match = fts5_match(query=parse_query(text=QUERY), any_term=False)
        assert match is not None  # the query has words
        # The console bot adds its own workspace beside the archive's: the search names one.
        workspace = str(search.VIEWER.workspace_key)
        warm_argv = [sys.executable, "-c", OURS, "search", QUERY, "--limit", str(LIMIT)]
        warm_argv += ["--workspace", workspace]
        cold_argv = [*warm_argv, "--here"]
        bare_argv = [sys.executable, "-c", BARE, str(path), match, str(LIMIT)]
        with _running_bot(env=env, cwd=Path(tmp), sockets=sockets):
            said = _timed(argv=warm_argv, env=env, cwd=Path(tmp))[1]
            if said != _timed(argv=cold_argv, env=env, cwd=Path(tmp))[1]:
                raise RuntimeError("the running bot's answer is not the command's own")
            _, listed = _timed(argv=bare_argv, env=env, cwd=Path(tmp))
            if "matches for" not in said or len(listed.splitlines()) != LIMIT + 1:
                raise RuntimeError(f"the sides did not all find {QUERY!r}:\n{said}\n{listed}")
            for _ in range(repeats):
                warm.append(_timed(argv=warm_argv, env=env, cwd=Path(tmp))[0] * 1000)
                cold.append(_timed(argv=cold_argv, env=env, cwd=Path(tmp))[0] * 1000)
                bare.append(_timed(argv=bare_argv, env=env, cwd=Path(tmp))[0] * 1000)
    return [
        figure(
            name=f"CLI search, {size:,} papers, a bot running",
            unit="ms",
            ours=warm,
            baseline="bare sqlite3 process",
            theirs=bare,
        ),
        figure(
            name=f"CLI search, {size:,} papers, no bot running",
            unit="ms",
            ours=cold,
            baseline="bare sqlite3 process",
            theirs=bare,
        ),
    ]


@contextlib.contextmanager
def _running_bot(*, env: dict[str, str], cwd: Path, sockets: Path) -> Iterator[None]:
    """A console bot on the archive while the block runs, once its search socket is there."""
    bot = subprocess.Popen(
        [sys.executable, "-c", OURS, "run", "--mode", "console"],
        env=env,
        cwd=cwd,
        stdin=subprocess.PIPE,  # held open: the console runs until its input ends
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 120
        while not list((sockets / "paperclub").glob("*.sock")):
            if bot.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the bot did not start answering searches")
            time.sleep(0.05)
        yield
    finally:
        bot.send_signal(signal.SIGTERM)
        bot.communicate(timeout=60)  # reaped, and its input pipe closed


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
