"""Ranking quality on a simulated group: the precision of each day's suggestions tray against
the group's hidden taste, beside newest-first and keyword-filter-only trays of the same days.

    python -m bench.sources_rank [--seeds N] [--days D] [--listing L] [--no-extra]

A seed draws the group's taste (two favoured topics of bench/sources_corpus.py's eight) and
its watch: keywords for the two favoured topics and two others (the admin's first guess).
Each day arXiv lists L new papers of every topic, newest first, and four trays are filled:

- newest first: the listing's first N, neither filtered nor ranked;
- filter only: the first N that pass the watch's keywords;
- keywords: those that pass, ranked by rank() on the group's history, without the extra;
- taste model: the same with the semantic extra's scorer, when it is installed (the bot's
  own, bot/services/suggestion_taste.py: the taste picker's ridge model over the vectors of
  what the group read; bench/sources_taste.py feeds it the simulated history).

Precision@N is the share of a tray in a favoured topic: the held-out judgement (the ranking
sees only votes, which are noisy; the topic is not), averaged over the days. Then the group
reads READS_PER_DAY papers drawn from what passed the filter (its queue is the watch's) and
votes on them, and they join its history. One figure per seed; rows give min–max over seeds.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from bench.sources_corpus import BY_NAME, TOPICS, SimPaper, papers
from bench.stats import figure
from bot.domain import VoteCount
from bot.sources.candidates import Candidate, candidate_keys, make_candidate
from bot.sources.keywords import FilterMatch, match_filters
from bot.sources.rank import GroupHistory, GroupRead, Scorer, rank
from bot.sources.tray import PER_DAY, fill_tray

SIZES = (PER_DAY, 10)  # precision at the tray's size, and at ten for a longer view
FAVOURED = 2  # topics the group likes, of eight
WATCHED = 4  # topics the watch's keywords name: the favoured two and two others
WARM = 4  # papers read before the first day (the group's first reading list)
READS_PER_DAY = 2
MEMBERS = 6
VOTING = 0.5  # chance a member votes on a paper read
LIKES_FAVOURED = 0.7  # chance a vote is 👍 on a paper of a favoured topic...
LIKES_OTHER = 0.35  # ...and on any other: the noise the ranking must see through
COMMENTS = (0.3, 0.1)  # chance a member comments, favoured topic or not
METHODS = ("newest", "filter", "keywords", "taste")
BASELINES = {"newest": "newest first", "filter": "filter only"}


@dataclass(frozen=True, slots=True)
class Group:
    """One seed's hidden taste and its watch's keywords."""

    favoured: frozenset[str]
    keywords: tuple[str, ...]


def group_of(*, rng: random.Random) -> Group:
    """The favoured topics and a watch naming them and as many others."""
    names = [topic.name for topic in TOPICS]
    favoured = rng.sample(names, FAVOURED)
    others = rng.sample([n for n in names if n not in favoured], WATCHED - FAVOURED)
    return Group(
        favoured=frozenset(favoured),
        keywords=tuple(BY_NAME[n].keyword for n in sorted([*favoured, *others])),
    )


def read_paper(*, paper: SimPaper, group: Group, rng: random.Random) -> GroupRead:
    """A paper the group read, with its noisy votes and comments."""
    favoured = paper.topic in group.favoured
    likes = LIKES_FAVOURED if favoured else LIKES_OTHER
    up = down = comments = 0
    for _ in range(MEMBERS):
        if rng.random() < VOTING:
            if rng.random() < likes:
                up += 1
            else:
                down += 1
        comments += rng.random() < COMMENTS[0 if favoured else 1]
    return GroupRead(
        title=paper.title,
        abstract=paper.abstract,
        authors=paper.authors,
        votes=VoteCount(up=up, down=down),
        comments=comments,
    )


def _candidate(*, paper: SimPaper, day: int) -> Candidate:
    """A listed paper as read_feed gives it."""
    made = make_candidate(
        source="arxiv:cs.LG",
        title=paper.title,
        abstract=paper.abstract,
        authors=paper.authors,
        arxiv_id=paper.arxiv_id,
        announced=date(2024, 6, 1 + day % 28),
        categories=paper.categories,
        announce="new",
    )
    assert made is not None
    return made


def precision(
    *, tray: Sequence[Candidate], topic: dict[Candidate, str], group: Group, n: int
) -> float:
    """The share of N places holding a favoured topic (an empty place counts as a miss)."""
    return sum(topic[c] in group.favoured for c in tray[:n]) / n


# The taste model's scorer for the group's history so far (None: too little to learn from).
ScorerFor = Callable[[Sequence[GroupRead]], Scorer | None]


def simulate(
    *, seed: int, days: int, listing: int, scorer_for: ScorerFor | None
) -> dict[str, dict[int, float]]:
    """One group over `days` days: each method's precision@N, averaged over the days."""
    rng = random.Random(seed)
    group = group_of(rng=rng)
    number = 1
    history: list[GroupRead] = []
    known: set[str] = set()
    found: dict[str, dict[int, list[float]]] = {m: {n: [] for n in SIZES} for m in METHODS}
    for day in range(days + 1):
        listed = papers(rng=rng, count=listing, first=number)
        number += listing
        topic: dict[Candidate, str] = {}
        for paper in listed:
            topic[_candidate(paper=paper, day=day)] = paper.topic
        candidates = list(topic)  # newest first, as the feed lists them
        filters: dict[Candidate, FilterMatch] = {}
        for candidate in candidates:
            match = match_filters(candidate=candidate, keywords=group.keywords)
            if match is not None:
                filters[candidate] = match
        passed = list(filters)
        if day > 0:  # day 0 only fills the first reading list
            past = GroupHistory(read=tuple(history))
            longest = max(SIZES)  # a shorter tray is the longer one's head (fill_tray's order)
            trays = {
                "newest": candidates[:longest],
                "filter": passed[:longest],
                "keywords": _tray(passed, past, None, filters, known, longest),
            }
            if scorer_for is not None:
                scorer = scorer_for(history)
                trays["taste"] = _tray(passed, past, scorer, filters, known, longest)
            for method, tray in trays.items():
                for n in SIZES:
                    found[method][n].append(precision(tray=tray, topic=topic, group=group, n=n))
        by_paper = {p.arxiv_id: p for p in listed}
        reads = WARM if day == 0 else READS_PER_DAY
        for candidate in rng.sample(passed, min(reads, len(passed))):
            assert candidate.arxiv_id is not None
            history.append(read_paper(paper=by_paper[candidate.arxiv_id], group=group, rng=rng))
            known.update(candidate_keys(candidate=candidate))
    return {
        method: {n: statistics.fmean(values) for n, values in sizes.items()}
        for method, sizes in found.items()
        if sizes[SIZES[0]]
    }


def _tray(
    passed: list[Candidate],
    past: GroupHistory,
    scorer: Scorer | None,
    filters: dict[Candidate, FilterMatch],
    known: set[str],
    n: int,
) -> list[Candidate]:
    """The ranked tray of `n`, as the bot would fill it."""
    ranked = rank(candidates=passed, history=past, scorer=scorer, filters=filters)
    return [r.candidate for r in fill_tray(ranked=ranked, known=known, limit=n)]


def run(
    *, seeds: int = 5, days: int = 15, listing: int = 40, extra: bool = True
) -> list[dict[str, Any]]:
    """Per method and N, precision over `seeds` groups; rows of ours against each baseline."""
    scorer_for = None
    if extra:
        from bench.sources_taste import taste_scorer_for

        scorer_for, why = taste_scorer_for()
        if scorer_for is None:
            print(f"sources ranking with the extra: skipped, {why}", file=sys.stderr)
    results = [
        simulate(seed=seed, days=days, listing=listing, scorer_for=scorer_for)
        for seed in range(1, seeds + 1)
    ]
    rows = []
    for method, label in (("keywords", "keywords"), ("taste", "taste model")):
        if method not in results[0]:
            continue
        for n in SIZES:
            for base, base_label in BASELINES.items():
                rows.append(
                    figure(
                        name=f"sources ranking P@{n}, {label} vs {base_label}",
                        unit=f"P@{n}",
                        ours=[r[method][n] for r in results],
                        baseline=base_label,
                        theirs=[r[base][n] for r in results],
                    )
                    | {"seeds": seeds, "days": days, "listing": listing}
                )
    return rows


def main(argv: list[str] | None = None) -> int:
    """Print each method's precision (median, min–max over seeds)."""
    parser = argparse.ArgumentParser(prog="python -m bench.sources_rank")
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--days", type=int, default=15)
    parser.add_argument("--listing", type=int, default=40)
    parser.add_argument("--no-extra", action="store_true", help="the keyword path only")
    args = parser.parse_args(argv)
    rows = run(seeds=args.seeds, days=args.days, listing=args.listing, extra=not args.no_extra)
    for r in rows:
        print(
            f"{r['name']:<46} {r['median']:.3f} ({r['min']:.3f}–{r['max']:.3f})  "
            f"{r['baseline']} {r['baseline_median']:.3f} "
            f"({r['baseline_min']:.3f}–{r['baseline_max']:.3f})  {r['ratio']:.2f}x"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
