"""The bare baseline of bench/search.py: one hand-written SQLite statement (run once a part of
the ranking) that builds the same page our search does, with none of our code in between (no
stores, no statement builder).

Per query it does what bot/db/search.py does on SQLite for a channel of the synthetic archive
(one workspace, public channels: ours adds no workspace or privacy condition there either):

- matches comments: comments_fts MATCH, joined to comments and posts, -bm25(comments_fts),
  the best comment a paper (its score and id);
- matches papers: papers_fts MATCH, -bm25(papers_fts, 10.0, 5.0, 1.0) (title, authors,
  abstract);
- scores each paper found either way as text + best comment (0 for a side that did not match),
  counts them (the page's total), and keeps the best LIMIT (5) by that score, then id;
- for those five: the paper's columns ours reads (search_sql.PAPERS), its latest delivered
  post's channel, date and permalink with its up and down votes and live comment count, the
  snippet() of its abstract and of its title (abstract if highlighted, else title, else the
  abstract's), and, where the comment weighed more than the text, that comment's snippet()
  and author; the same marks, ellipsis and 16 tokens as ours.

As ours, a query of several words ranks the papers with every word first, then the related
papers (every phrase and some of the words: the MATCH string ours builds with words=SOME),
each part by its own score, the total counting both: the statement runs once per part, every
snippet highlighting the related match, and the pages are joined (the every-word page, then
the related page without the papers already in it); when the every-word part fills the page,
the related papers are only counted (COUNT), as ours does. When no paper has every word it runs
again with any of them (the MATCH string ours builds with any_term). What it skips that ours
does: reading the scope (one small statement), SQLAlchemy's session, building the statements,
and rendering the page.

It is written plainly, not tuned as ours is: it joins every paper that matches to the comment
scores and keeps them all for the count, where ours combines only the best by text with the
papers a comment found, and counts a one-word query by walking its doclist. On broad single
words (diffusion, retrieval) ours is faster than it; on narrow queries the fixed cost of ours (the
scope, the session, the render, ~0.1 ms) shows.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from bot.db.search_sql import SNIPPET_TOKENS
from bot.domain import HIGHLIGHT_CLOSE, HIGHLIGHT_OPEN

LIMIT = 5
_SNIP = "snippet({}, {}, :o, :c, '…', " + str(SNIPPET_TOKENS) + ")"
# Each CTE is materialized once: the matches are read once, for the page and for the count.
STATEMENT = (
    "WITH cm AS MATERIALIZED (SELECT posts.paper_id AS pid, -bm25(comments_fts) AS s, "
    "comments.id AS cid FROM comments_fts JOIN comments ON comments.id = comments_fts.rowid "
    "JOIN posts ON posts.id = comments.post_id WHERE comments_fts MATCH :q), "
    "c AS MATERIALIZED (SELECT pid, max(s) AS s, cid FROM cm GROUP BY pid), "
    "m AS MATERIALIZED (SELECT rowid AS id, -bm25(papers_fts, 10.0, 5.0, 1.0) AS s "
    "FROM papers_fts WHERE papers_fts MATCH :q), "
    "found AS MATERIALIZED (SELECT m.id AS id, m.s AS ts, coalesce(c.s, 0.0) AS cs, c.cid AS cid "
    "FROM m LEFT JOIN c ON c.pid = m.id "
    "UNION ALL SELECT pid, 0.0, s, cid FROM c WHERE pid NOT IN (SELECT id FROM m)), "
    "top AS MATERIALIZED (SELECT id, ts, cs, cid FROM found ORDER BY ts + cs DESC, id LIMIT :k), "
    f"ps AS MATERIALIZED (SELECT rowid AS id, {_SNIP.format('papers_fts', 2)} AS a, "
    f"{_SNIP.format('papers_fts', 0)} AS t FROM papers_fts WHERE papers_fts MATCH :h "
    "AND rowid IN (SELECT id FROM top)), "
    f"cs AS MATERIALIZED (SELECT rowid AS id, {_SNIP.format('comments_fts', 0)} AS snippet "
    "FROM comments_fts WHERE comments_fts MATCH :h "
    "AND rowid IN (SELECT cid FROM top WHERE cs > ts)) "
    "SELECT top.id AS id, top.ts + top.cs AS score, (SELECT count(*) FROM found) AS total, "
    "p.title, p.abstract, p.authors, p.url, p.arxiv_id, p.doi, p.source, p.added_by, "
    "p.added_at, p.position, p.status, p.queue_channel_id, p.title_derived, p.list_id, "
    "fc.platform, fc.workspace, fc.external_id AS channel, fq.local_date, fq.permalink, "
    "(SELECT count(*) FROM votes v WHERE v.post_id = fq.id AND v.value > 0) AS up, "
    "(SELECT count(*) FROM votes v WHERE v.post_id = fq.id AND v.value < 0) AS down, "
    "(SELECT count(*) FROM comments k WHERE k.post_id = fq.id AND NOT k.deleted) AS comments, "
    "coalesce(cs.snippet, CASE WHEN instr(ps.a, :o) THEN ps.a WHEN instr(ps.t, :o) THEN ps.t "
    "ELSE ps.a END) AS snippet, "
    "CASE WHEN cs.id IS NULL THEN NULL ELSE (SELECT user_id FROM comments WHERE id = cs.id) "
    "END AS comment_user "
    "FROM top JOIN papers p ON p.id = top.id "
    "LEFT JOIN posts fq ON fq.id = (SELECT id FROM posts WHERE paper_id = top.id "
    "AND state = 'posted' ORDER BY local_date DESC, id DESC LIMIT 1) "
    "LEFT JOIN channels fc ON fc.id = fq.channel_id "
    "LEFT JOIN ps ON ps.id = top.id LEFT JOIN cs ON cs.id = top.cid "
    "ORDER BY score DESC, top.id"
)

# The papers matching :q by their text or a comment, none scored (the related papers' count
# when the page holds only papers with every word, as ours counts them).
COUNT = (
    "SELECT count(*) FROM (SELECT rowid FROM papers_fts WHERE papers_fts MATCH :q UNION "
    "SELECT posts.paper_id FROM comments_fts JOIN comments ON comments.id = comments_fts.rowid "
    "JOIN posts ON posts.id = comments.post_id WHERE comments_fts MATCH :q)"
)


def bare(
    *,
    db: sqlite3.Connection,
    match: str | None,
    any_match: str | None,
    some_match: str | None = None,
    limit: int = LIMIT,
) -> list[Any]:
    """The page's rows for the FTS5 MATCH string `match`, then the related papers of
    `some_match` (None when the query has no related papers), or for `any_match` (any of the
    words, None for a query of one) when no paper matches them all; each row carries the
    total."""
    highlight = some_match or match
    rows = _page(db=db, match=match, highlight=highlight, limit=limit)
    if not rows and any_match is not None:
        return _page(db=db, match=any_match, highlight=any_match, limit=limit)
    if not rows or some_match is None:
        return rows
    if rows[0]["total"] >= limit:  # the page is all every-word papers: count the related
        total = db.execute(COUNT, {"q": some_match}).fetchone()[0]
        return [{**dict(row), "total": total} for row in rows]
    related = _page(db=db, match=some_match, highlight=some_match, limit=limit)
    seen = {row["id"] for row in rows}
    total = related[0]["total"] if related else rows[0]["total"]
    joined = [*rows, *(row for row in related if row["id"] not in seen)][:limit]
    return [{**dict(row), "total": total} for row in joined]


def _page(
    *, db: sqlite3.Connection, match: str | None, highlight: str | None, limit: int
) -> list[Any]:
    """One run of the statement, its rows read by column name (as ours reads its own)."""
    params = {"q": match, "h": highlight, "k": limit, "o": HIGHLIGHT_OPEN, "c": HIGHLIGHT_CLOSE}
    cursor = db.cursor()
    cursor.row_factory = sqlite3.Row
    return cursor.execute(STATEMENT, params).fetchall()
