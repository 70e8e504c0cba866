"""The bare keyword baseline of bench/relevance.py: plain SQLite FTS5, none of our code.

One in-memory FTS5 table, tokenize 'porter unicode61 remove_diacritics 2', a row per paper
with four columns: title, abstract, authors (joined by spaces) and its comments (every
comment of the judged set on that paper, joined by newlines). A query is its words (runs of
letters and digits; an `author:` key dropped) each quoted and OR'ed, ranked by plain bm25()
(every column weighted 1), best first.
"""

from __future__ import annotations

import re
import sqlite3
from collections import defaultdict
from typing import Any

_WORD = re.compile(r"\w+")
_KEY = re.compile(r"\b(author|in|is|after|before):", re.IGNORECASE)
_TABLE = (
    "CREATE VIRTUAL TABLE bare USING fts5(title, abstract, authors, comments, "
    "tokenize='porter unicode61 remove_diacritics 2')"
)
_QUERY = "SELECT rowid FROM bare WHERE bare MATCH :q ORDER BY bm25(bare), rowid LIMIT :k"


class BareBm25:
    """The corpus and its comments in one FTS5 table; `rank` answers a query."""

    def __init__(self, *, corpus: list[dict[str, Any]], said: list[dict[str, Any]]) -> None:
        """Index every paper, its row id its place in `corpus`."""
        threads: dict[str, list[str]] = defaultdict(list)
        for line in said:
            threads[line["paper"]].append(line["text"])
        self.keys = [paper["id"] for paper in corpus]
        self.db = sqlite3.connect(":memory:")
        self.db.execute(_TABLE)
        self.db.executemany(
            "INSERT INTO bare(rowid, title, abstract, authors, comments) VALUES (?, ?, ?, ?, ?)",
            [
                (n, p["title"], p["abstract"], " ".join(p["authors"]), "\n".join(threads[p["id"]]))
                for n, p in enumerate(corpus)
            ],
        )

    def rank(self, *, text: str, depth: int) -> list[str]:
        """The corpus keys of the first `depth` papers matching any word of `text`."""
        words = _WORD.findall(_KEY.sub(" ", text))
        if not words:
            return []
        match = " OR ".join('"' + word.replace('"', '""') + '"' for word in words)
        rows = self.db.execute(_QUERY, {"q": match, "k": depth}).fetchall()
        return [self.keys[row[0]] for row in rows]

    def close(self) -> None:
        """Free the in-memory table."""
        self.db.close()
