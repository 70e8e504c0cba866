"""Names forgiven at scale: the authors' index (migration 0017, bot/services/name_lookup.py)
against the scan it replaced, on bench/search.py's synthetic archives.

    python -m bench.names --sizes 10000,100000,1000000

Both answer the same question for one typed name (a typo, an accent, initials): the
workspace's papers whose authors it names, fewest edits first, then newest, at most 200.
Ours opens the search's steps as the search service does (one statement reading the scope)
and asks the index: the words near the typed ones by trigrams, the names holding them, their
papers. The scan is what names forgiven ran before the index, on the same connection and
snapshot: the same steps opened, then one statement listing every (paper, author) of the
workspace (json_each over every paper, as bot/db/search_authors.py read it) and
name_match.forgiven over the rows, judging each distinct name once. Both answers are checked
equal before timing. The synthetic archive has 224 distinct names (16 first x 14 last), each
on ~1.1% of papers: few names, many papers each, the hard case for the papers' step.
"""

from __future__ import annotations

import argparse
from typing import Any

from bench import search
from bot.db.database import Database
from bot.search_query import parse_query
from bot.services.name_lookup import named_papers
from bot.services.name_match import forgiven, person_words

# bench/synthetic.py's names, typed as people misremember them.
QUERIES = (
    "Dana Novac",  # a typo in the surname
    "okafr",  # a letter missing, the surname alone
    "Fátima Haddad",  # an accent the archive does not write
    "K. Okafor",  # an initial
    "Meyr",  # four letters: taken as typed, finds nobody
    "Priya Kumarr",  # a letter too many
    "Goran Dubios",  # two letters swapped: two edits, more than six letters allow
    "Halvorson",  # nobody of that name
)
# What names forgiven read before the index (search_authors.py before migration 0017).
SCAN = (
    "SELECT papers.id AS id, a.value AS author FROM papers, json_each(papers.authors) a "
    "WHERE a.type = 'text'"
)


def measure(*, size: int, repeat: int = 11, scan_repeat: int = 5) -> dict[str, Any]:
    """Per-query median times of the index and of the scan on one archive."""
    path = search.build(size=size)
    database = Database(url=f"sqlite:///{path}")
    per_query: list[dict[str, Any]] = []
    with database(write=False) as store:
        raw = store.session.connection().connection.driver_connection
        for text in QUERIES:
            typed = person_words(text=text)

            def open_run(text: str = text) -> Any:
                """The search's steps, as names forgiven opens them."""
                query = parse_query(text=text)
                workspace = search.VIEWER.workspace_key
                return store.search_run(query=query, viewer=search.VIEWER, workspace=workspace)

            def ours(typed: tuple[str, ...] = typed) -> list[int]:
                """The index."""
                return named_papers(run=open_run(), typed=typed)

            def scan(typed: tuple[str, ...] = typed) -> list[int]:
                """Every author of every paper, judged in Python."""
                open_run()
                pairs = raw.execute(SCAN).fetchall()
                return forgiven(typed=typed, authors=pairs)

            found = ours()
            if found != scan():
                raise AssertionError(f"the index and the scan disagree on {text!r}")
            (ours_ms,) = search._time(ours, repeat=repeat)
            (scan_ms,) = search._time(scan, repeat=scan_repeat)
            per_query.append(
                {"query": text, "papers": len(found), "ours_ms": ours_ms, "scan_ms": scan_ms}
            )
    database.dispose()
    summary = {
        key: search._spread(values=[row[key] for row in per_query])
        for key in ("ours_ms", "scan_ms")
    }
    ratio = summary["ours_ms"]["median"] / summary["scan_ms"]["median"]
    return {"size": size, "queries": per_query, **summary, "ours_over_scan": ratio}


def run(sizes: list[int]) -> list[dict[str, Any]]:
    """Build (or reuse) each archive and measure it."""
    return [measure(size=size, scan_repeat=3 if size >= 1_000_000 else 5) for size in sizes]


def table(*, results: list[dict[str, Any]]) -> str:
    """The index against the scan, per size."""
    head = f"{'papers':>9}  {'index ms':>24}  {'scan ms':>28}  index/scan"
    rows = [head, "-" * len(head)]
    for r in results:
        rows.append(
            f"{r['size']:>9,}  {search.cell(r['ours_ms']):>24}  {search.cell(r['scan_ms']):>28}  "
            f"{r['ours_over_scan']:10.4f}"
        )
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> None:
    """Command line: --sizes 10000,100000,1000000 [--per-query]."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000,1000000")
    parser.add_argument("--per-query", action="store_true", help="also print every query")
    args = parser.parse_args(argv)
    results = run([int(size) for size in args.sizes.split(",")])
    if args.per_query:
        for r in results:
            for q in r["queries"]:
                print(
                    f"{r['size']:>9,}  {q['query']:<16} {q['papers']:>4} papers  "
                    f"index {q['ours_ms']:8.2f}  scan {q['scan_ms']:9.2f}"
                )
    print(table(results=results))


if __name__ == "__main__":
    main()
