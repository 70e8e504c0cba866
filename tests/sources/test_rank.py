"""Ranking candidates by the group: quality on a judged corpus beside the two baselines, the
reasons, the scorer path, what the group hid, ties and order."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from bot.domain import VoteCount
from bot.sources.candidates import Candidate, make_candidate
from bot.sources.keywords import match_filters
from bot.sources.rank import Closeness, GroupHistory, GroupRead, Reason, rank
from tests.sources import judged_corpus as corpus

AT = 3


def _precision(*, picked: Sequence[Candidate], topics: Mapping[Candidate, str]) -> float:
    """The share of the first AT picked whose topic the group favours."""
    return sum(topics[c] in corpus.FAVOURED for c in picked[:AT]) / AT


def _mean_precision(*, order: str) -> float:
    """Mean precision@3 over the corpus's days for one way of ordering a day's feed."""
    history = GroupHistory(read=corpus.group_read())
    total = 0.0
    for day in corpus.DAYS:
        listed = corpus.feed(day=day)
        topics = dict(listed)
        candidates = [c for c, _ in listed]
        if order == "newest":
            picked = candidates
        elif order == "keyword":
            picked = [
                c for c in candidates if match_filters(candidate=c, keywords=corpus.WATCH_KEYWORDS)
            ]
        else:
            picked = [r.candidate for r in rank(candidates=candidates, history=history)]
        total += _precision(picked=picked, topics=topics)
    return total / len(corpus.DAYS)


def test_the_group_ranking_beats_newest_first_and_the_keyword_filter() -> None:
    newest = _mean_precision(order="newest")
    keyword = _mean_precision(order="keyword")
    ranked = _mean_precision(order="rank")
    assert ranked > newest and ranked > keyword, (ranked, newest, keyword)
    # Day 1 lists two favoured papers in six: 2/3 is its best, so 8/9 the best mean.
    ideal = sum(
        min(AT, sum(t in corpus.FAVOURED for _, t in corpus.feed(day=d))) / AT for d in corpus.DAYS
    ) / len(corpus.DAYS)
    assert ranked == ideal and newest <= 1 / 3


def _paper(title: str, abstract: str = "", *authors: str, arxiv: str = "") -> Candidate:
    made = make_candidate(
        source="arxiv:cs.LG", title=title, abstract=abstract, authors=authors, arxiv_id=arxiv
    )
    assert made is not None
    return made


def _read(title: str, abstract: str = "", *authors: str, up: int = 3, down: int = 0) -> GroupRead:
    return GroupRead(title=title, abstract=abstract, authors=authors, votes=VoteCount(up, down))


def test_reasons_name_the_keyword_the_author_and_else_new() -> None:
    history = GroupHistory(
        read=(
            _read("Streaming data pipeline scheduling", "A pipeline for streaming data."),
            _read("Cache design", "Caches.", "Paul Pegon"),
            _read("Cache eviction", "Eviction.", "P. Pegon"),
        )
    )
    word = _paper("Pipeline stalls in streaming systems", "When a streaming pipeline stalls.")
    author = _paper("Something else entirely", "Nothing shared.", "Pegon, Paul")
    plain = _paper("Birdsong dialects", "Songbirds learn dialects.")
    reasons = {
        r.candidate: r.reason for r in rank(candidates=[plain, author, word], history=history)
    }
    assert reasons[word].kind == "keyword" and reasons[word].value in {
        "pipeline",
        "streaming",
        "streaming pipeline",
    }
    assert reasons[author] == Reason(kind="author", value="Pegon, Paul", count=2)
    assert reasons[plain] == Reason(kind="new")


def test_a_watch_keyword_is_the_reason_when_the_group_history_names_none() -> None:
    paper = _paper("Birdsong dialects", "Songbirds learn dialects.")
    match = match_filters(candidate=paper, keywords=["songbirds"])
    assert match is not None
    (ranked,) = rank(candidates=[paper], history=GroupHistory(), filters={paper: match})
    assert ranked.reason == Reason(kind="keyword", value="songbirds")


def test_what_the_group_hid_or_voted_down_sinks_what_resembles_it() -> None:
    crypto = _paper("Blockchain consensus protocols", "Consensus for blockchain ledgers.")
    other = _paper("Blockchain sharding protocols", "Sharding blockchain ledgers.")
    birds = _paper("Birdsong dialects", "Songbirds learn dialects.")
    hid = GroupHistory(hidden=(crypto,))
    assert rank(candidates=[other, birds], history=hid)[-1].candidate == other
    down = GroupHistory(read=(_read(crypto.title, crypto.abstract, up=0, down=3),))
    assert rank(candidates=[other, birds], history=down)[-1].candidate == other
    promoted = GroupHistory(promoted=(crypto,))
    assert rank(candidates=[birds, other], history=promoted)[0].candidate == other


def test_the_scorer_ranks_and_names_the_close_paper() -> None:
    a, b, c = (_paper(t) for t in ("Alpha study", "Beta study", "Gamma study"))
    seen: list[Sequence[Candidate]] = []

    def scorer(candidates: Sequence[Candidate]) -> Mapping[Candidate, Closeness]:
        seen.append(candidates)
        return {a: Closeness(score=0.1), b: Closeness(score=0.9, title="Read *before*")}

    ranked = rank(candidates=[a, b, c], history=GroupHistory(), scorer=scorer)
    assert ranked[0].candidate == b and len(seen) == 1
    assert ranked[0].reason == Reason(kind="close", value="Read *before*")
    assert all(r.reason.kind == "new" for r in ranked[1:])


def test_ties_fall_in_a_stable_order_whatever_the_input_order() -> None:
    papers = [_paper(f"Untouched topic {n}", arxiv=f"2401.0000{n}") for n in range(6)]
    history = GroupHistory(read=(_read("Unrelated", "Nothing in common."),))
    first = rank(candidates=papers, history=history)
    again = rank(candidates=list(reversed(papers)), history=history)
    assert first == again
    assert [r.candidate.arxiv_id for r in first] == [f"2401.0000{n}" for n in range(6)]


def test_the_corpus_ranks_the_same_in_any_order() -> None:
    history = GroupHistory(read=corpus.group_read())
    reversed_history = GroupHistory(read=tuple(reversed(corpus.group_read())))
    candidates = [c for day in corpus.DAYS for c, _ in corpus.feed(day=day)]
    first = rank(candidates=candidates, history=history)
    again = rank(candidates=candidates[::-1], history=reversed_history)
    assert [r.candidate for r in first] == [r.candidate for r in again]
    assert [r.reason for r in first] == [r.reason for r in again]


def test_hostile_and_empty_inputs_rank_without_harm() -> None:
    hostile = "<!channel> *bold* <@U123> @everyone [x](https://evil.example) 🧪👩🏽‍🔬 "
    long = Candidate(title=hostile * 400, source="s", abstract="word " * 10_000)
    emoji = Candidate(title="🧪" * 10_000, source="s")
    history = GroupHistory(read=(_read(hostile, hostile * 50, "<@U1> Lovelace"),))
    ranked = rank(candidates=[long, emoji], history=history)
    assert {r.candidate for r in ranked} == {long, emoji}
    assert rank(candidates=[], history=history) == ()
    assert rank(candidates=[emoji], history=GroupHistory())[0].reason == Reason(kind="new")
    same = replace(emoji)
    assert len(rank(candidates=[emoji, same], history=history)) == 2
