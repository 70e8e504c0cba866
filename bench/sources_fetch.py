"""A watch's morning on arXiv's busiest day: fetch, filter, rank and dedupe a 2,000-entry
listing, against the bare feed parse of the same bytes.

    python -m bench.sources_fetch [--entries N] [--repeats R]

Ours: PoliteFetcher's GET of the listing from a loopback server, read_feed, the watch's
keyword filter, rank() without the semantic extra against the group's history (READ papers
read, with votes and comments, and a few candidates promoted and hidden), and fill_tray
deduping against an archive's known keys (ARCHIVE papers, some of whose new versions the
listing announces). The baseline is feedparser.parse of the same bytes: the part of ours no
code of ours can make faster. The listing is RSS as rss.arxiv.org serves it
(tests/fakesources/arxiv_bodies), the papers bench/sources_corpus.py's.
"""

from __future__ import annotations

import argparse
import gc
import io
import random
import time
from datetime import date
from typing import Any

import feedparser

from bench.sources_corpus import SimPaper, papers
from bench.stats import figure
from bot.domain import VoteCount
from bot.outbound.fetch import PoliteFetcher
from bot.ports.fetching import Body
from bot.sources.candidates import Candidate, candidate_keys, make_candidate
from bot.sources.feeds import read_feed
from bot.sources.keywords import match_filters
from bot.sources.rank import GroupHistory, GroupRead, rank
from bot.sources.tray import fill_tray
from tests.fakesources import RSS_KIND, Announcement, FakeFeeds, arxiv_bodies

ENTRIES = 2_000  # arXiv's busiest days list about this many in cs.LG
ARCHIVE = 2_000  # papers the archive knows (their keys are what the tray dedupes against)
READ = 100  # of them, the papers the group read: the ranking's history
REPLACED = 0.1  # share of the listing that is a new version of an archive paper
# A broad watch: its keywords pass nearly every entry, so the ranking sees the whole listing.
KEYWORDS = ("learning", "model")
SOURCE = "arxiv:cs.LG"
DAY = date(2024, 6, 3)
SEED = 32


def _announcement(*, paper: SimPaper, version: int = 1) -> Announcement:
    """A synthetic paper as arXiv's feed announces it."""
    return Announcement(
        arxiv_id=paper.arxiv_id,
        title=paper.title,
        abstract=paper.abstract,
        authors=paper.authors,
        categories=paper.categories,
        version=version,
        replacement=version > 1,
    )


def _candidate(*, paper: SimPaper) -> Candidate:
    """A synthetic paper as the archive holds it, for its keys and the history."""
    made = make_candidate(
        source=SOURCE,
        title=paper.title,
        abstract=paper.abstract,
        authors=paper.authors,
        arxiv_id=paper.arxiv_id,
    )
    assert made is not None
    return made


def listing_body(*, entries: int, archive: list[SimPaper], rng: random.Random) -> bytes:
    """The day's RSS: new papers, cross-lists, and new versions of some archive papers."""
    fresh = papers(rng=rng, count=entries, first=10_000)
    replaced = set(rng.sample(range(entries), k=min(len(archive), int(entries * REPLACED))))
    listing = []
    for n, paper in enumerate(fresh):
        if n in replaced:
            old = archive[n % len(archive)]
            listing.append((_announcement(paper=old, version=2), "replace"))
        else:
            kind = "cross" if paper.categories[0] != "cs.LG" else "new"
            listing.append((_announcement(paper=paper), kind))
    order = {"new": 0, "cross": 1, "replace": 2}  # as arXiv's listing orders them
    listing.sort(key=lambda pair: order[pair[1]])
    return arxiv_bodies.rss(query="cs.LG", day=DAY, listing=listing).encode("utf-8")


def history_of(*, archive: list[SimPaper], rng: random.Random) -> GroupHistory:
    """READ papers read with votes and comments; five promoted and ten hidden candidates."""
    read = tuple(
        GroupRead(
            title=p.title,
            abstract=p.abstract,
            authors=p.authors,
            votes=VoteCount(up=rng.randint(0, 5), down=rng.randint(0, 3)),
            comments=rng.randint(0, 6),
        )
        for p in archive[:READ]
    )
    promoted = tuple(_candidate(paper=p) for p in archive[READ : READ + 5])
    hidden = tuple(_candidate(paper=p) for p in archive[READ + 5 : READ + 15])
    return GroupHistory(read=read, promoted=promoted, hidden=hidden)


def ours(*, url: str, history: GroupHistory, known: frozenset[str]) -> dict[str, Any]:
    """One watch's run, timed: seconds, and how many entries each step kept."""
    started = time.perf_counter()
    fetched = PoliteFetcher(allow_private=True).fetch(url=url)  # a new host: no spacing wait
    assert isinstance(fetched, Body), fetched
    read = read_feed(data=fetched.data, source=SOURCE)
    filters = {}
    for candidate in read.candidates:
        match = match_filters(candidate=candidate, keywords=KEYWORDS)
        if match is not None:
            filters[candidate] = match
    ranked = rank(candidates=list(filters), history=history, filters=filters)
    tray = fill_tray(ranked=ranked, known=known)
    seconds = time.perf_counter() - started
    return {"seconds": seconds, "read": len(read.candidates), "kept": len(filters), "tray": tray}


def bare(*, body: bytes) -> float:
    """Seconds for feedparser alone on the same bytes."""
    started = time.perf_counter()
    parsed = feedparser.parse(io.BytesIO(body))
    seconds = time.perf_counter() - started
    assert parsed.entries
    return seconds


def run(*, entries: int = ENTRIES, repeats: int = 5) -> list[dict[str, Any]]:
    """Median/min/max seconds of ours and of the bare parse, in turns, after one warm-up each."""
    rng = random.Random(SEED)
    archive = papers(rng=rng, count=max(ARCHIVE, READ + 15), first=1)
    known = frozenset(key for p in archive for key in candidate_keys(candidate=_candidate(paper=p)))
    history = history_of(archive=archive, rng=rng)
    body = listing_body(entries=entries, archive=archive, rng=rng)
    mine: list[float] = []
    theirs: list[float] = []
    with FakeFeeds() as feeds:
        url = feeds.put("/rss/cs.LG", body=body, kind=RSS_KIND, validators=False)
        last = ours(url=url, history=history, known=known)
        bare(body=body)
        for _ in range(repeats):
            gc.collect()  # neither side pays for the other's garbage
            last = ours(url=url, history=history, known=known)
            mine.append(last["seconds"])
            gc.collect()
            theirs.append(bare(body=body))
    row = figure(
        name=f"sources fetch+rank, {entries:,} entries",
        unit="s",
        ours=mine,
        baseline="bare feedparser",
        theirs=theirs,
    )
    extra = {"bytes": len(body), "read": last["read"], "kept": last["kept"]}
    return [row | extra | {"tray": len(last["tray"])}]


def main(argv: list[str] | None = None) -> int:
    """Print the figure."""
    parser = argparse.ArgumentParser(prog="python -m bench.sources_fetch")
    parser.add_argument("--entries", type=int, default=ENTRIES)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    for row in run(entries=args.entries, repeats=args.repeats):
        print(
            f"{row['name']} ({row['bytes'] / 1e6:.1f} MB; {row['read']:,} read, {row['kept']:,} "
            f"past the filter, {row['tray']} in the tray): ours {row['median']:.3f} s "
            f"({row['min']:.3f}–{row['max']:.3f}), bare feedparser {row['baseline_median']:.3f} s "
            f"({row['baseline_min']:.3f}–{row['baseline_max']:.3f}), ratio {row['ratio']:.2f}x"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
