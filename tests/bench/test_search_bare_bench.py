"""The search benchmark's bare baseline builds the very page ours does on a small synthetic
archive: the same papers in the same order, the same total, the same snippets, comment hits
included; and the benchmark times it beside ours for every query."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from bench import search
from bench.search_bare import bare
from bot.db.database import Database
from bot.search_query import SOME, fts5_match, fts5_words, parse_query, related_words

SIZE = 2_000  # built in ~2 s, with ~100 posts and their comments


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A synthetic archive of this module's own."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(search, "CACHE", tmp_path_factory.mktemp("bare-bench"))
        yield search.build(size=SIZE, log=lambda line: None)


def pages(*, archive: Path, text: str) -> tuple[Any, list[Any]]:
    """Ours (as the benchmark searches) and the bare rows for one query."""
    query = parse_query(text=text)
    database = Database(url=f"sqlite:///{archive}")
    try:
        with database(write=False) as store:
            ours = store.search(
                query=query,
                limit=5,
                offset=0,
                viewer=search.VIEWER,
                workspace=search.VIEWER.workspace_key,
            )
            db = store.session.connection().connection.driver_connection
            assert isinstance(db, sqlite3.Connection)
            relaxed = fts5_match(query=query, any_term=True) if len(query.positives) > 1 else None
            some = fts5_words(query=query, words=SOME) if related_words(query=query) else None
            rows = bare(db=db, match=fts5_match(query=query), any_match=relaxed, some_match=some)
    finally:
        database.dispose()
    return ours, rows


def test_a_plain_keyword_finds_the_same_papers_comment_hits_included(archive: Path) -> None:
    ours, rows = pages(archive=archive, text="retrieval")
    assert [row["id"] for row in rows] == [hit.paper.id for hit in ours.hits]
    assert len(rows) == 5 and rows[0]["total"] == ours.total
    by_comment = [row for row in rows if row["comment_user"] is not None]
    assert by_comment, "the page should hold papers found by what members said"
    assert [row["id"] for row in by_comment] == [h.paper.id for h in ours.hits if h.from_comment]


@pytest.mark.parametrize("text", search.QUERIES)
def test_every_benchmark_query_gets_the_same_page(archive: Path, text: str) -> None:
    ours, rows = pages(archive=archive, text=text)
    expected = [
        (h.paper.id, h.snippet, h.comment_user, h.votes.up, h.votes.down, h.comments, h.post_date)
        for h in ours.hits
    ]
    got = [
        (
            row["id"],
            row["snippet"],
            row["comment_user"],
            row["up"],
            row["down"],
            row["comments"],
            date.fromisoformat(row["local_date"]) if row["local_date"] else None,
        )
        for row in rows
    ]
    assert got == expected
    assert (rows[0]["total"] if rows else 0) == ours.total


def test_no_paper_with_every_word_falls_back_to_any_as_ours_does(archive: Path) -> None:
    ours, rows = pages(archive=archive, text="diffusion qqqzzzx")
    assert ours.relaxed and ours.hits
    assert [row["id"] for row in rows] == [hit.paper.id for hit in ours.hits]


def test_the_benchmark_times_both_on_every_query(
    archive: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(search, "CACHE", archive.parent)
    result = search.measure(size=SIZE, repeat=1, like_repeat=1)
    assert [q["query"] for q in result["queries"]] == list(search.QUERIES)
    assert all(q["ours_ms"] > 0 and q["bare_ms"] > 0 for q in result["queries"])
    assert result["ours_over_bare"] > 0
