"""Smoke test of the hybrid search benchmark: a tiny archive's run times the service with and
without the semantic extra for every query and states the vectors' memory, and `make bench`
judges its rows against issue 17's target and the relevance rows as references."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from bench import search
from bench.__main__ import hybrid_rows, relevance_rows
from bench.targets import judged

SIZE = 2_000  # built in ~2 s: the whole run stays well under 10 s


@pytest.fixture(scope="module")
def result(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """One run with one timing a side, on an archive of this module's own."""
    pytest.importorskip("onnxruntime")  # the extra: without it there is nothing to time
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(search, "CACHE", tmp_path_factory.mktemp("hybrid-bench"))
        yield search.measure_hybrid(size=SIZE, repeat=1)


def test_both_sides_of_every_query_are_timed_and_the_memory_is_stated(
    result: dict[str, Any],
) -> None:
    assert [q["query"] for q in result["queries"]] == list(search.QUERIES)
    for q in result["queries"]:
        assert q["bm25_ms"] > 0 and q["hybrid_ms"] > 0, q
    assert sum(q["by_meaning"] for q in result["queries"]) > 0  # meaning-only hits did run
    assert result["vectors"] == SIZE
    assert result["vectors_mib"] == pytest.approx(SIZE * 384 * 4 / 2**20)
    assert result["first_search_ms"] > 0 and result["rss_growth_mib"] > 0
    assert result["hybrid_over_bm25"] > 0


def test_its_row_is_judged_against_twice_bm25_alone(
    result: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(search, "measure_hybrid", lambda *, size: result)
    [row] = hybrid_rows(size=SIZE)
    row = judged(row=row)
    assert row["name"] == "search with the extra, 2,000 papers"
    assert row["runs"] == len(search.QUERIES)
    assert (row["better"], row["limit"], row["target"]) == ("lower", 2.0, "≤ 2x")
    assert row["vectors_mib"] == result["vectors_mib"]  # the memory rides along in the JSON


def test_relevance_rows_are_references_where_higher_is_better() -> None:
    scores = {"mrr": 0.5, "recall@5": 0.4, "ndcg@10": 0.8, "queries": 3}
    table = {
        "keyword": {"keyword": {**scores, "ndcg@10": 0.6}, "author": scores},
        "hybrid": {"keyword": {**scores, "mrr": 0.75}, "author": scores},
        "bare bm25": {"keyword": scores, "author": {**scores, "ndcg@10": 0.0}},
        "bare vectors": {"keyword": scores, "author": scores},
    }
    rows = [judged(row=row) for row in relevance_rows(result={"table": table})]
    # bare bm25's zero nDCG has no ratio: that row is left to relevance's own table
    assert [(row["name"], row["baseline"]) for row in rows] == [
        ("relevance MRR, keyword queries, hybrid", "bare vectors"),
        ("relevance nDCG@10, keyword queries, keyword", "bare bm25"),
        ("relevance MRR, author queries, hybrid", "bare vectors"),
    ]
    assert [row["ratio"] for row in rows] == [pytest.approx(1.5), pytest.approx(0.75), 1.0]
    assert {(row["better"], row["target"], row["passed"]) for row in rows} == {
        ("higher", "—", None)
    }
