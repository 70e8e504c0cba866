"""The archive's .bib and .ris downloads: a whole public channel's papers and a year's.

    python -m bench.web_files --size 100000

On the cached synthetic archive of bench/search.py, each download is answered through Flask's
test client, in turns; the baseline renders the same records, read once, with no query (what
the file costs to write alone)."""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from bench import search
from bench.stats import figure
from bench.web import LAST_DAY
from bot.db.database import Database
from bot.export_formats import render
from bot.services import archive_files
from bot.services import archive_web as views
from bot.services.embedding import NO_SEMANTIC
from bot.services.telemetry import Telemetry
from bot.web.archive import archive_app

PATHS = ("/channel/C0000001/papers.ris", "/channel/C0000001/papers.bib", "/top/year/papers.ris")


def _time(*, client: Any, path: str) -> tuple[float, int]:
    """Milliseconds to answer one GET (200 checked), and the body's bytes."""
    started = time.perf_counter()
    answer = client.get(path)
    body = answer.get_data()
    elapsed = (time.perf_counter() - started) * 1000
    assert answer.status_code == 200, (path, answer.status_code)
    return elapsed, len(body)


def run(*, size: int, repeat: int) -> list[dict[str, Any]]:
    """One row per download, each `repeat` times, beside rendering its records alone."""
    database = Database(url=f"sqlite:///{search.build(size=size)}")
    rows = []
    try:
        app = archive_app(
            semantic_extra=NO_SEMANTIC, telemetry=Telemetry(), uow=database, today=lambda: LAST_DAY
        )
        client = app.test_client()
        workspace = views.workspace_of(uow=database, named=None)
        found = archive_files.channel_records(uow=database, workspace=workspace, name="C0000001")
        year = archive_files.period_records(
            uow=database, workspace=workspace, period="year", today=LAST_DAY
        )
        assert found is not None and year is not None
        records = {PATHS[0]: found[1], PATHS[1]: found[1], PATHS[2]: year}
        for path in PATHS:
            fmt = "bibtex" if path.endswith(".bib") else "ris"
            _time(client=client, path=path)  # warm
            ours, theirs, size_bytes = [], [], 0
            for _ in range(repeat):
                took, size_bytes = _time(client=client, path=path)
                ours.append(took)
                started = time.perf_counter()
                render(records=records[path], fmt=fmt)
                theirs.append((time.perf_counter() - started) * 1000)
            print(
                f"  {path:<32} {len(records[path]):>5} papers {size_bytes / 1e6:6.2f} MB  "
                f"median {statistics.median(ours):7.1f} ms  min {min(ours):7.1f}  "
                f"max {max(ours):7.1f}  (render alone {statistics.median(theirs):6.1f} ms)"
            )
            rows.append(
                figure(
                    name=f"{path}, {size:,} papers",
                    unit="ms",
                    ours=ours,
                    baseline="rendering the records alone",
                    theirs=theirs,
                )
            )
    finally:
        database.dispose()
    return rows


def main() -> None:
    """Run the downloads benchmark alone and print its rows."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=10)
    args = parser.parse_args()
    for row in run(size=args.size, repeat=args.repeat):
        print(row)


if __name__ == "__main__":
    main()
