"""Web archive benchmark: our pages against a bare Flask page rendering the same template.

    python -m bench.web --size 100000

On the cached synthetic archive of bench/search.py (built once per size), each page of the
archive (latest posts, a paper, a search, a channel, top of the month, a JSON twin, the feed
and a chart) is rendered through Flask's test client, in turns; the baseline renders the
latest-posts template from a page read once, with none of our queries. Issue 16's target:
a page in 50 ms or less (median) at 100,000 papers.
"""

from __future__ import annotations

import argparse
import statistics
import time
from datetime import date
from typing import Any

from bench import search
from bench.stats import figure
from bot.db.database import Database
from bot.services import archive_web as views
from bot.services.embedding import NO_SEMANTIC
from bot.services.telemetry import Telemetry
from bot.web.archive import archive_app

TARGET_MS = 50.0
LAST_DAY = date(2026, 5, 31)  # the synthetic archive's last post


def _pages(*, database: Database) -> list[str]:
    """The paths timed: one of each kind of page."""
    with database(write=False) as store:
        latest = store.public_posts(
            workspace=views.workspace_of(uow=database, named=None),
            channel_id=None,
            since=None,
            by_votes=False,
            limit=1,
            offset=0,
        )
    paper = latest.posts[0].paper_id
    return [
        "/",
        f"/paper/{paper}",
        "/search?q=pipeline+parallelism",
        "/channel/C0000001",
        "/top/month",
        "/api/?offset=200",
        "/feed.atom",
        "/charts/weeks.svg",
        f"/api/paper/{paper}",
        "/search?q=diffusion&offset=10",
    ]


def _time(*, client: Any, path: str) -> float:
    """Milliseconds to answer one GET (200 checked)."""
    started = time.perf_counter()
    answer = client.get(path)
    elapsed = (time.perf_counter() - started) * 1000
    assert answer.status_code == 200, (path, answer.status_code)
    return elapsed


def run(*, size: int, repeat: int) -> list[dict[str, Any]]:
    """The web row: every page `repeat` times, beside the bare template as often."""
    path = search.build(size=size)
    database = Database(url=f"sqlite:///{path}")
    try:
        app = archive_app(
            semantic_extra=NO_SEMANTIC, telemetry=Telemetry(), uow=database, today=lambda: LAST_DAY
        )
        bare = archive_app(
            semantic_extra=NO_SEMANTIC, telemetry=Telemetry(), uow=database, today=lambda: LAST_DAY
        )
        page = views.latest(uow=database, workspace=views.workspace_of(uow=database, named=None))
        bare.before_request_funcs = {}  # no workspace look-up: no query at all

        @bare.get("/bare")
        def bare_page() -> str:
            """The latest-posts template from a page read once."""
            from flask import render_template

            return render_template(
                "posts.html", page=page, heading="Latest posts", here="home", channels=[]
            )

        ours_client, bare_client = app.test_client(), bare.test_client()
        paths = _pages(database=database)
        for target in paths:  # warm the caches and the template compiler once
            _time(client=ours_client, path=target)
        _time(client=bare_client, path="/bare")
        ours: list[float] = []
        theirs: list[float] = []
        per_page: dict[str, list[float]] = {p: [] for p in paths}
        for _ in range(repeat):
            for target in paths:
                took = _time(client=ours_client, path=target)
                ours.append(took)
                per_page[target].append(took)
                theirs.append(_time(client=bare_client, path="/bare"))
    finally:
        database.dispose()
    for target, took in per_page.items():
        print(
            f"  {target:<32} median {statistics.median(took):7.2f} ms  "
            f"min {min(took):7.2f}  max {max(took):7.2f}"
        )
    verdict = "meets" if statistics.median(ours) <= TARGET_MS else "MISSES"
    print(f"  median {statistics.median(ours):.2f} ms: {verdict} the {TARGET_MS:g} ms target")
    return [
        figure(
            name=f"web page, {size:,} papers",
            unit="ms",
            ours=ours,
            baseline="bare Flask page",
            theirs=theirs,
        )
    ]


def main() -> None:
    """Run the web benchmark alone and print its row."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    for row in run(size=args.size, repeat=args.repeat):
        print(row)


if __name__ == "__main__":
    main()
