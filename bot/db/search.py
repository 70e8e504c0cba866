"""Search papers by their text and by what members said about them (SQLite FTS5 or PostgreSQL).

Score = text match (-bm25(papers_fts, 10.0, 5.0, 1.0); PostgreSQL: ts_rank weighted 1/0.5/0.1)
+ the best live matching comment's bm25, so matching in both ranks above either alone. Never
negative, so the best N sums lie among the best N by text plus the papers with a matching
comment: only those are combined; posts, votes and snippets are read for the page alone.
Every word must match; when no paper has them all, any of them.
"""

# S608: the SQL is assembled from this module's constants only; what users type is bound.
# ruff: noqa: S608
from __future__ import annotations

import json
from datetime import date, datetime
from typing import Any, NamedTuple

from sqlalchemy import text
from sqlalchemy.orm import Session

from bot.db.convert import utc
from bot.domain import HIGHLIGHT_CLOSE as CLOSE
from bot.domain import HIGHLIGHT_OPEN as OPEN
from bot.domain import Paper, PaperStatus, SearchHit, SearchPage, VoteCount
from bot.search_query import SearchQuery, fts5_authors, fts5_excluded, fts5_match, tsquery_terms

SNIPPET_TOKENS = 16
WALK_PER_HIT = 4000  # archive papers per hit up to which snippets walk the matches, not seek
_CFG = "'english'::regconfig"
# The exact expressions of the GIN indexes in migration 0001, so the planner uses them.
_PG_VECTOR = (
    f"(setweight(to_tsvector({_CFG}, coalesce(papers.title, '')), 'A') || "
    f"setweight(to_tsvector({_CFG}, coalesce(papers.authors::text, '')), 'B') || "
    f"setweight(to_tsvector({_CFG}, coalesce(papers.abstract, '')), 'C'))"
)
_PG_COMMENT = f"to_tsvector({_CFG}, comments.text)"
# ts_rank weights are {D, C, B, A}: abstract 0.1, authors 0.5, title 1.0, as 1:5:10 in FTS5.
_PG_RANK = f"ts_rank(ARRAY[0.1, 0.1, 0.5, 1.0]::float4[], {_PG_VECTOR}, {{q}})"
_BM25 = "-bm25(papers_fts, 10.0, 5.0, 1.0)"
_IN_IDS = "IN (SELECT value FROM json_each(:ids))"
_SNIP = "snippet({}, {}, :o, :c, '…', " + str(SNIPPET_TOKENS) + ")"
_HEADLINE = f"ts_headline({_CFG}, {{}}, {{{{q}}}}, :opts)"
_HEADLINE_OPTIONS = f'StartSel="{OPEN}", StopSel="{CLOSE}", MaxWords={SNIPPET_TOKENS}, MinWords=8'

# One statement over the text matches {m} and the best comment per paper `c`: the best :k by
# text (0), text scores of papers with a matching comment (1; not started without any, as the
# CROSS JOIN's outer row is missing; + keeps the ids from becoming FTS5 rowid seeks), the
# comment matches (2), the count (3).
_RANK = (
    "SELECT 0, id, s, CAST(NULL AS INTEGER) FROM (SELECT id, s FROM {m} ORDER BY s DESC, id "
    "LIMIT :k) t UNION ALL SELECT 1, id, s, NULL FROM (SELECT 1 AS one WHERE EXISTS (SELECT 1 "
    "FROM c)) AS any_c CROSS JOIN {m} WHERE +id IN (SELECT pid FROM c) "
    "UNION ALL SELECT 2, pid, s, cid FROM c UNION ALL SELECT 3, count(*), NULL, NULL FROM {m}"
)
# One dialect's statements: {q} is the match expression, {filters} extra conditions.
_SQLITE = dict(
    pid="papers_fts.rowid",
    ids=_IN_IDS,
    excluded=" AND papers.id NOT IN (SELECT rowid FROM papers_fts WHERE papers_fts MATCH "
    ":f_excluded)",
    # MATERIALIZED: FTS5 refuses bm25() in an aggregate; max() then keeps its row's cid.
    matches=f"SELECT papers_fts.rowid AS id, {_BM25} AS s FROM papers_fts "
    "WHERE papers_fts MATCH {q}{filters}",
    rank="WITH cm AS MATERIALIZED (SELECT posts.paper_id AS pid, -bm25(comments_fts) AS s, "
    "comments.id AS cid FROM comments_fts JOIN comments ON comments.id = comments_fts.rowid "
    "JOIN posts ON posts.id = comments.post_id WHERE comments_fts MATCH {q}{comment_filters}), "
    f"c AS MATERIALIZED (SELECT pid, max(s) AS s, cid FROM cm GROUP BY pid){{kept}} {_RANK}",
    snippets=f"SELECT papers_fts.rowid, {_SNIP.format('papers_fts', 2)}, "
    f"{_SNIP.format('papers_fts', 0)} FROM papers_fts WHERE papers_fts MATCH {{q}} "
    f"AND {{plus}}papers_fts.rowid {_IN_IDS}",
    comment_snippets=f"SELECT comments_fts.rowid, {_SNIP.format('comments_fts', 0)}, "
    "comments.user_id FROM comments_fts JOIN comments ON comments.id = comments_fts.rowid "
    f"WHERE comments_fts MATCH {{q}} AND comments_fts.rowid {_IN_IDS}",
)
_POSTGRES = dict(
    pid="papers.id",
    ids="= ANY(:ids)",
    excluded=f" AND NOT ({_PG_VECTOR} @@ {{x}})",
    rank="WITH c AS MATERIALIZED (SELECT DISTINCT ON (posts.paper_id) posts.paper_id AS pid, "
    f"ts_rank({_PG_COMMENT}, {{q}}) AS s, comments.id AS cid FROM comments JOIN posts "
    f"ON posts.id = comments.post_id WHERE NOT comments.deleted AND {_PG_COMMENT} @@ {{q}}"
    "{comment_filters} ORDER BY posts.paper_id, s DESC)"
    "{kept} " + _RANK,
    matches=f"SELECT papers.id AS id, {_PG_RANK} AS s FROM papers "
    f"WHERE {_PG_VECTOR} @@ {{q}}{{filters}}",
    snippets=f"SELECT papers.id, {_HEADLINE.format('papers.abstract')}, "
    f"{_HEADLINE.format('papers.title')} FROM papers WHERE papers.id = ANY(:ids)",
    comment_snippets=f"SELECT comments.id, {_HEADLINE.format('comments.text')}, "
    "comments.user_id FROM comments WHERE comments.id = ANY(:ids)",
)
_COLUMNS = "id, title, abstract, authors, url, arxiv_id, doi, source, added_by, added_at"
_PAPERS = f"SELECT {_COLUMNS}, position, status, channel FROM papers WHERE id {{ids}}"
# Aliases fq/fc are the ones the post filters use; ascending, so each paper's last row wins.
_POSTS = (
    "SELECT fq.paper_id, fc.channel_id, fq.local_date, fq.permalink, "
    "(SELECT count(*) FROM votes v WHERE v.post_id = fq.id AND v.value > 0), "
    "(SELECT count(*) FROM votes v WHERE v.post_id = fq.id AND v.value < 0), "
    "(SELECT count(*) FROM comments k WHERE k.post_id = fq.id AND NOT k.deleted) "
    "FROM posts fq JOIN channels fc ON fc.id = fq.channel_id "
    "WHERE fq.paper_id {ids} AND fq.state = 'posted'{filters} ORDER BY fq.local_date, fq.id"
)
_LIST = (
    "SELECT papers.id FROM papers LEFT JOIN (SELECT paper_id, max(local_date) AS d FROM posts "
    "WHERE state = 'posted' GROUP BY paper_id) lp ON lp.paper_id = papers.id WHERE 1 = 1"
    "{filters} ORDER BY lp.d IS NULL, lp.d DESC, papers.id DESC LIMIT :k OFFSET :offset"
)
_LIST_COUNT = "SELECT count(*) FROM papers WHERE 1 = 1{filters}"


class _Scored(NamedTuple):
    """A candidate: its text score, its best comment's score and that comment."""

    paper_id: int
    text_score: float
    comment_score: float = 0.0
    comment_id: int | None = None


class _Search:
    """One search in one session: the dialect's statements and the query's bound values."""

    def __init__(self, *, session: Session, query: SearchQuery) -> None:
        """Pick the dialect; SQLite statements go straight to the session's own connection."""
        self.session, self.query, self.q = session, query, ":q"
        self.pg = session.get_bind().dialect.name == "postgresql"
        self.sql = _POSTGRES if self.pg else _SQLITE
        # SQLAlchemy costs ~0.1 ms a statement, as much as a whole FTS5 query on a small
        # archive; sqlite3 takes the same :name parameters, in the same transaction.
        self.raw: Any = None if self.pg else session.connection().connection.driver_connection
        self.params: dict[str, Any] = {"o": OPEN, "c": CLOSE, "opts": _HEADLINE_OPTIONS}

    def rows(self, sql: str, *, filters: str = "", comments: str = "", **extra: Any) -> list[Any]:
        """Run one of our statements with the query's bound values."""
        statement = sql.format(
            q=self.q, filters=filters, comment_filters=comments, ids=self.sql["ids"]
        )
        params = {**self.params, **extra}
        if self.raw is None:
            return list(self.session.execute(text(statement), params).all())
        if "ids" in params:
            params["ids"] = json.dumps(params["ids"])
        return list(self.raw.execute(statement, params).fetchall())

    def tsquery(self, *, any_term: bool, negated_only: bool = False) -> str:
        """A tsquery of our function calls over bound words (tq0, tq1 ...)."""
        positive: list[str] = []
        negative: list[str] = []
        for index, term in enumerate(tsquery_terms(query=self.query)):
            self.params[f"tq{index}"] = term.text
            call = f"{term.function}({_CFG}, :tq{index})"
            (negative if term.negated else positive).append(call)
        if negated_only:
            return "(" + " || ".join(negative) + ")"
        body = "(" + (" || " if any_term else " && ").join(positive) + ")"
        return "(" + " && ".join([body, *(f"!!{call}" for call in negative)]) + ")"

    def filters(self, *, pid: str) -> str:
        """AND-ed conditions on the paper id expression `pid` (one of our column names)."""
        query, conditions = self.query, []
        if query.status is not None:
            self.params["f_status"] = query.status.value
            conditions.append(
                f"EXISTS (SELECT 1 FROM papers fp WHERE fp.id = {pid} AND fp.status = :f_status)"
            )
        if on_posts := self.post_filters():
            conditions.append(
                "EXISTS (SELECT 1 FROM posts fq JOIN channels fc ON fc.id = fq.channel_id "
                f"WHERE fq.paper_id = {pid} AND fq.state = 'posted'{on_posts})"
            )
        if query.authors and self.pg:
            self.params.update({f"f_author{i}": name for i, name in enumerate(query.authors)})
            names = [f"phraseto_tsquery({_CFG}, :f_author{i})" for i in range(len(query.authors))]
            conditions.append(
                f"EXISTS (SELECT 1 FROM papers fa WHERE fa.id = {pid} AND to_tsvector({_CFG}, "
                f"coalesce(fa.authors::text, '')) @@ ({' && '.join(names)}))"
            )
        elif query.authors:
            self.params["f_authors"] = fts5_authors(query=query)
            conditions.append(
                f"{pid} IN (SELECT rowid FROM papers_fts WHERE papers_fts MATCH :f_authors)"
            )
        return "".join(f" AND {condition}" for condition in conditions)

    def post_filters(self) -> str:
        """Conditions on a post `fq` in channel `fc`: channel and dates."""
        query, conditions = self.query, []
        if query.channel is not None:
            self.params.update(f_chan=query.channel, f_chan_bare=query.channel.lstrip("#"))
            conditions.append("fc.channel_id IN (:f_chan, :f_chan_bare)")
        for name, day, op in (("after", query.after, ">"), ("before", query.before, "<")):
            if day is not None:
                self.params[f"f_{name}"] = day if self.pg else day.isoformat()
                conditions.append(f"fq.local_date {op} :f_{name}")
        return "".join(f" AND {condition}" for condition in conditions)

    def listing(self, *, limit: int, offset: int) -> tuple[list[_Scored], int]:
        """Filters only: latest posts first, then papers never posted, newest first."""
        filters = self.filters(pid="papers.id")
        if self.query.excluded:
            self.params["f_excluded"] = fts5_excluded(query=self.query)
            excluded = self.tsquery(any_term=True, negated_only=True) if self.pg else ""
            filters += self.sql["excluded"].format(x=excluded)
        page = self.rows(_LIST, filters=filters, k=limit, offset=offset)
        total = self.rows(_LIST_COUNT, filters=filters)[0][0]
        return [_Scored(paper_id=row[0], text_score=0.0) for row in page], int(total)

    def rank(self, *, depth: int, any_term: bool) -> tuple[list[_Scored], int]:
        """Candidates best first (at least the best `depth`) and how many papers match."""
        if self.pg:
            self.q = self.tsquery(any_term=any_term)
        else:
            self.params["q"] = fts5_match(query=self.query, any_term=any_term)
        # One plain word: FTS5 counts by walking one doclist, cheaper than keeping each match.
        # Several words or an exclusion: counting would merge the doclists again, so the
        # matches are kept (materialized) once and read back for the best and the count.
        single = len(self.query.terms) == 1 and not self.query.phrases + self.query.excluded
        sql, matches = self.sql["rank"], self.sql["matches"]
        if single and not self.pg:
            sql = sql.replace("{kept}", "").replace("{m}", f"({matches}) AS m")
        else:
            sql = sql.replace("{kept}", f", m AS MATERIALIZED ({matches})").replace("{m}", "m")
        filters = self.filters(pid=self.sql["pid"])
        rows = self.rows(sql, filters=filters, comments=self.filters(pid="posts.paper_id"), k=depth)
        found = {row[1]: _Scored(row[1], float(row[2])) for row in rows if row[0] == 0}
        # A paper found through a comment may also match by text, below the best `depth`.
        both = {row[1]: float(row[2]) for row in rows if row[0] == 1}
        by_comment = [row[1:] for row in rows if row[0] == 2]
        for paper_id, score, comment_id in by_comment:
            found[paper_id] = _Scored(paper_id, both.get(paper_id, 0.0), float(score), comment_id)
        ranked = sorted(found.values(), key=lambda h: (-h.text_score - h.comment_score, h.paper_id))
        matched = next(int(row[1]) for row in rows if row[0] == 3)
        return ranked, matched + len(by_comment) - len(both)

    def hits(self, *, page: list[_Scored]) -> tuple[SearchHit, ...]:
        """Papers, latest posts, votes, comment counts and snippets for the page alone."""
        ids = [hit.paper_id for hit in page]
        if not ids:
            return ()
        papers = {row[0]: _paper(row=row) for row in self.rows(_PAPERS, ids=ids)}
        posts = {row[0]: row for row in self.rows(_POSTS, filters=self.post_filters(), ids=ids)}
        snippets: dict[int, str] = {}
        comments: dict[int, Any] = {}
        if self.query.has_text:
            # A rowid seek costs ~0.1 ms; walking the matches of a small archive costs less.
            size = self.rows("SELECT max(id) FROM papers")[0][0] or 0
            plus = "+" if size <= WALK_PER_HIT * len(ids) else ""
            for row in self.rows(self.sql["snippets"].replace("{plus}", plus), ids=ids):
                snippets[row[0]] = next((s for s in row[1:] if s and OPEN in s), row[1])
            # The comment is shown when the paper matched only there or it weighed more.
            chosen = [h.comment_id for h in page if h.comment_score > h.text_score]
            if chosen:
                comments = {r[0]: r for r in self.rows(self.sql["comment_snippets"], ids=chosen)}
        return tuple(
            _hit(hit=hit, paper=papers[hit.paper_id], post=posts.get(hit.paper_id),
                 comment=comments.get(hit.comment_id or 0), snippet=snippets.get(hit.paper_id))
            for hit in page
        )  # fmt: skip


def _hit(*, hit: _Scored, paper: Paper, post: Any, comment: Any, snippet: str | None) -> SearchHit:
    """One SearchHit from the rows read for it."""
    when = post[2] if post else None
    # Without a highlighted snippet (filters only): the abstract's first words, or the title.
    lead = " ".join(paper.abstract.split()[:SNIPPET_TOKENS]) or paper.title
    return SearchHit(
        paper=paper, snippet=comment[1] if comment else snippet or lead,
        from_comment=comment is not None, score=hit.text_score + hit.comment_score,
        comment_user=comment[2] if comment else None, channel=post[1] if post else None,
        post_date=date.fromisoformat(when) if isinstance(when, str) else when,
        permalink=post[3] if post else None,
        votes=VoteCount(up=post[4], down=post[5]) if post else VoteCount(),
        comments=post[6] if post else 0,
    )  # fmt: skip


def _paper(*, row: Any) -> Paper:
    """A paper from a raw row (SQLite hands back JSON and timestamps as text)."""
    authors, added_at = row[3], row[9]
    authors = json.loads(authors) if isinstance(authors, str) else authors
    added_at = datetime.fromisoformat(added_at) if isinstance(added_at, str) else added_at
    return Paper(
        id=row[0], title=row[1], abstract=row[2], authors=tuple(authors or ()), url=row[4],
        arxiv_id=row[5], doi=row[6], source=row[7], added_by=row[8], added_at=utc(value=added_at),
        position=row[10], status=PaperStatus(row[11]), channel=row[12],
    )  # fmt: skip


def search(*, session: Session, query: SearchQuery, limit: int = 5, offset: int = 0) -> SearchPage:
    """One page of papers matching the query, best first (latest posts first without words)."""
    limit, offset = max(0, limit), max(0, offset)
    run = _Search(session=session, query=query)
    if not query.has_text:
        page, total = run.listing(limit=limit, offset=offset)
        return SearchPage(hits=run.hits(page=page), total=total, offset=offset)
    ranked, total = run.rank(depth=offset + limit, any_term=False)
    relaxed = total == 0 and len(query.positives) > 1
    if relaxed:
        ranked, total = run.rank(depth=offset + limit, any_term=True)
    hits = run.hits(page=ranked[offset : offset + limit])
    return SearchPage(hits=hits, total=total, offset=offset, relaxed=relaxed and bool(total))
