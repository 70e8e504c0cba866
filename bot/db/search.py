"""Search papers by their own text and by what members said about them: SQLite FTS5 or
PostgreSQL tsvector, one algorithm over both.

Ranking: a paper scores its text match (FTS5 bm25 with title 10, authors 5, abstract 1,
negated so higher is better; on PostgreSQL ts_rank with weights 1.0/0.5/0.1) plus the score
of its best live matching comment (bm25 over comments_fts). A paper matching in both gets
both. Scores are never negative, so the top N of the sum lie within the top N by text score
plus the papers with a matching comment: only those are scored together, and posts, votes
and snippets are read for the page's hits alone. All words must match; when no paper has
them all, the search retries with any of them.

The SQL below is assembled only from this module's constants; whatever the user typed
travels as bound parameters (an FTS5 expression of quoted strings, or tsquery words).
"""

# S608: every SQL string here is assembled from this module's constants; user text is bound.
# ruff: noqa: S608
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import ColumnElement, func, select, text
from sqlalchemy.orm import Session

from bot.db.convert import to_paper
from bot.db.schema import ChannelRow, CommentRow, PaperRow, PostRow, VoteRow
from bot.domain import (
    HIGHLIGHT_CLOSE,
    HIGHLIGHT_OPEN,
    Paper,
    PostState,
    SearchHit,
    SearchPage,
    VoteCount,
)
from bot.search_query import (
    SearchQuery,
    fts5_authors,
    fts5_excluded,
    fts5_match,
    tsquery_terms,
)

SNIPPET_TOKENS = 16
_CFG = "'english'::regconfig"
# The exact expressions of the GIN indexes in migration 0001, so the planner uses them.
_PG_PAPER_VECTOR = (
    f"(setweight(to_tsvector({_CFG}, coalesce(papers.title, '')), 'A') || "
    f"setweight(to_tsvector({_CFG}, coalesce(papers.authors::text, '')), 'B') || "
    f"setweight(to_tsvector({_CFG}, coalesce(papers.abstract, '')), 'C'))"
)
_PG_COMMENT_VECTOR = f"to_tsvector({_CFG}, comments.text)"
# ts_rank weights are {D, C, B, A}: abstract 0.1, authors 0.5, title 1.0, as 1:5:10 in FTS5.
_PG_RANK = f"ts_rank(ARRAY[0.1, 0.1, 0.5, 1.0]::float4[], {_PG_PAPER_VECTOR}, {{q}})"
_BM25 = "-bm25(papers_fts, 10.0, 5.0, 1.0)"
_SQ_IDS = "(SELECT value FROM json_each(:ids))"
_SQ_SNIP = f"snippet({{table}}, {{col}}, :o, :c, '…', {SNIPPET_TOKENS})"
_POSTED = f"'{PostState.POSTED.value}'"


@dataclass(frozen=True, slots=True)
class _Sql:
    """One dialect's statements; {q} is the match expression, {filters} extra conditions."""

    pid: str
    top: str
    count: str
    scores: str
    comments: str
    snippets: str
    comment_snippets: str


_SQLITE = _Sql(
    pid="papers_fts.rowid",
    top=f"SELECT papers_fts.rowid, {_BM25} AS s FROM papers_fts WHERE papers_fts MATCH {{q}}"
    "{filters} ORDER BY s DESC, papers_fts.rowid LIMIT :k",
    count="SELECT count(*) FROM papers_fts WHERE papers_fts MATCH {q}{filters}",
    scores=f"SELECT papers_fts.rowid, {_BM25} FROM papers_fts WHERE papers_fts MATCH {{q}} "
    f"AND papers_fts.rowid IN {_SQ_IDS}",
    # MATERIALIZED: FTS5 refuses bm25() inside an aggregate; max() then keeps its row's cid.
    comments="WITH m AS MATERIALIZED (SELECT posts.paper_id AS pid, -bm25(comments_fts) AS s, "
    "comments.id AS cid FROM comments_fts JOIN comments ON comments.id = comments_fts.rowid "
    "JOIN posts ON posts.id = comments.post_id WHERE comments_fts MATCH {q}{filters}) "
    "SELECT pid, max(s), cid FROM m GROUP BY pid",
    snippets=f"SELECT papers_fts.rowid, {_SQ_SNIP.format(table='papers_fts', col=2)}, "
    f"{_SQ_SNIP.format(table='papers_fts', col=0)} FROM papers_fts "
    f"WHERE papers_fts MATCH {{q}} AND papers_fts.rowid IN {_SQ_IDS}",
    comment_snippets=f"SELECT comments_fts.rowid, {_SQ_SNIP.format(table='comments_fts', col=0)}, "
    "comments.user_id FROM comments_fts JOIN comments ON comments.id = comments_fts.rowid "
    f"WHERE comments_fts MATCH {{q}} AND comments_fts.rowid IN {_SQ_IDS}",
)
_PG_HEADLINE = f"ts_headline({_CFG}, {{column}}, {{q}}, :opts)"
_POSTGRES = _Sql(
    pid="papers.id",
    top=f"SELECT papers.id, {_PG_RANK} AS s FROM papers WHERE {_PG_PAPER_VECTOR} @@ {{q}}"
    "{filters} ORDER BY s DESC, papers.id LIMIT :k",
    count=f"SELECT count(*) FROM papers WHERE {_PG_PAPER_VECTOR} @@ {{q}}{{filters}}",
    scores=f"SELECT papers.id, {_PG_RANK} FROM papers "
    f"WHERE papers.id = ANY(:ids) AND {_PG_PAPER_VECTOR} @@ {{q}}",
    comments=f"SELECT DISTINCT ON (posts.paper_id) posts.paper_id, ts_rank({_PG_COMMENT_VECTOR}, "
    "{q}) AS s, comments.id FROM comments JOIN posts ON posts.id = comments.post_id "
    f"WHERE NOT comments.deleted AND {_PG_COMMENT_VECTOR} @@ {{q}}{{filters}} "
    "ORDER BY posts.paper_id, s DESC",
    snippets=f"SELECT papers.id, {_PG_HEADLINE.format(column='papers.abstract', q='{q}')}, "
    f"{_PG_HEADLINE.format(column='papers.title', q='{q}')} FROM papers WHERE papers.id = ANY(:ids)",
    comment_snippets="SELECT comments.id, "
    f"{_PG_HEADLINE.format(column='comments.text', q='{q}')}, comments.user_id FROM comments "
    "WHERE comments.id = ANY(:ids)",
)
_LIST = (
    "SELECT papers.id FROM papers LEFT JOIN (SELECT paper_id, max(local_date) AS d FROM posts "
    f"WHERE state = {_POSTED} GROUP BY paper_id) lp ON lp.paper_id = papers.id WHERE 1 = 1"
    "{filters} ORDER BY lp.d IS NULL, lp.d DESC, papers.id DESC LIMIT :k OFFSET :offset"
)
_LIST_COUNT = "SELECT count(*) FROM papers WHERE 1 = 1{filters}"


@dataclass(frozen=True, slots=True)
class _Scored:
    """A candidate: its text score, its best comment's score and that comment."""

    paper_id: int
    text_score: float
    comment_score: float = 0.0
    comment_id: int | None = None

    @property
    def score(self) -> float:
        """The combined score: text plus best comment."""
        return self.text_score + self.comment_score


class _Search:
    """One search over one session: the dialect's statements and the query's parameters."""

    def __init__(self, *, session: Session, query: SearchQuery) -> None:
        """Pick the dialect and prepare the filter conditions."""
        self.session = session
        self.query = query
        self.pg = session.get_bind().dialect.name == "postgresql"
        self.sql = _POSTGRES if self.pg else _SQLITE
        self.params: dict[str, Any] = {"o": HIGHLIGHT_OPEN, "c": HIGHLIGHT_CLOSE}
        self.params["opts"] = (
            f'StartSel="{HIGHLIGHT_OPEN}", StopSel="{HIGHLIGHT_CLOSE}", '
            f"MaxWords={SNIPPET_TOKENS}, MinWords={SNIPPET_TOKENS // 2}"
        )
        self.q = ":q"

    def _run(
        self, sql: str, *, filters_on: str | None = None, filters: str = "", **extra: Any
    ) -> Any:
        """Execute one of our statements with the query's parameters."""
        filters += self._filters(pid=filters_on) if filters_on else ""
        statement = text(sql.format(q=self.q, filters=filters))
        return self.session.execute(statement, {**self.params, **extra})

    def _tsquery(self, *, any_term: bool, negate_all: bool = False) -> str:
        """A tsquery of our function calls over bound words (params tq0, tq1 ...)."""
        positive: list[str] = []
        negative: list[str] = []
        for index, term in enumerate(tsquery_terms(query=self.query)):
            self.params[f"tq{index}"] = term.text
            call = f"{term.function}({_CFG}, :tq{index})"
            (negative if term.negated else positive).append(call)
        if negate_all:
            return "(" + " || ".join(negative) + ")"
        body = "(" + (" || " if any_term else " && ").join(positive) + ")"
        return "(" + " && ".join([body, *(f"!!{call}" for call in negative)]) + ")"

    def _filters(self, *, pid: str) -> str:
        """AND-ed conditions on the paper id expression `pid` (one of our column names)."""
        query, conditions, on_posts = self.query, [], []
        if query.status is not None:
            self.params["f_status"] = query.status.value
            conditions.append(
                f"EXISTS (SELECT 1 FROM papers fp WHERE fp.id = {pid} AND fp.status = :f_status)"
            )
        if query.channel is not None:
            self.params.update(f_chan=query.channel, f_chan_bare=query.channel.lstrip("#"))
            on_posts.append("fc.channel_id IN (:f_chan, :f_chan_bare)")
        for name, day in (("after", query.after), ("before", query.before)):
            if day is not None:
                self.params[f"f_{name}"] = day if self.pg else day.isoformat()
                on_posts.append(f"fq.local_date {'>' if name == 'after' else '<'} :f_{name}")
        if on_posts:
            conditions.append(
                "EXISTS (SELECT 1 FROM posts fq JOIN channels fc ON fc.id = fq.channel_id "
                f"WHERE fq.paper_id = {pid} AND fq.state = {_POSTED} AND "
                + " AND ".join(on_posts)
                + ")"
            )
        if query.authors and self.pg:
            names = []
            for index, name in enumerate(query.authors):
                self.params[f"f_author{index}"] = name
                names.append(f"phraseto_tsquery({_CFG}, :f_author{index})")
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

    def _ids(self, ids: list[int]) -> Any:
        """A list of ids as one bound parameter: a JSON array on SQLite, an array on PG."""
        return ids if self.pg else json.dumps(ids)

    def listing(self, *, limit: int, offset: int) -> tuple[list[_Scored], int]:
        """Filters only: newest posts first, then papers never posted, newest first."""
        filters = self._filters(pid="papers.id")
        if self.query.excluded and self.pg:
            vector_query = self._tsquery(any_term=True, negate_all=True)
            filters += f" AND NOT ({_PG_PAPER_VECTOR} @@ {vector_query})"
        elif self.query.excluded:
            self.params["f_excluded"] = fts5_excluded(query=self.query)
            filters += (
                " AND papers.id NOT IN (SELECT rowid FROM papers_fts "
                "WHERE papers_fts MATCH :f_excluded)"
            )
        rows = self._run(_LIST, filters=filters, k=limit, offset=offset)
        total = self._run(_LIST_COUNT, filters=filters).scalar_one()
        return [_Scored(paper_id=row[0], text_score=0.0) for row in rows], int(total)

    def rank(self, *, depth: int, any_term: bool) -> tuple[list[_Scored], int]:
        """Candidates in score order (at least the top `depth`) and how many papers match."""
        if self.pg:
            self.q = self._tsquery(any_term=any_term)
        else:
            self.params["q"] = fts5_match(query=self.query, any_term=any_term)
        pid = self.sql.pid
        top = self._run(self.sql.top, filters_on=pid, k=depth).all()
        count = int(self._run(self.sql.count, filters_on=pid).scalar_one())
        by_comment = {
            row[0]: (float(row[1]), int(row[2]))
            for row in self._run(self.sql.comments, filters_on="posts.paper_id")
        }
        found: dict[int, _Scored] = {row[0]: _Scored(row[0], float(row[1])) for row in top}
        both: dict[int, float] = {}
        if by_comment:
            ids = self._ids(sorted(by_comment))
            both = {row[0]: float(row[1]) for row in self._run(self.sql.scores, ids=ids)}
        for paper_id, (score, comment_id) in by_comment.items():
            found[paper_id] = _Scored(paper_id, both.get(paper_id, 0.0), score, comment_id)
        ranked = sorted(found.values(), key=lambda hit: (-hit.score, hit.paper_id))
        return ranked, count + len(by_comment) - len(both)

    def hits(self, *, page: list[_Scored]) -> tuple[SearchHit, ...]:
        """Papers, latest posts, votes, comment counts and snippets for the page alone."""
        if not page:
            return ()
        ids = [hit.paper_id for hit in page]
        papers = {
            row.id: to_paper(row=row)
            for row in self.session.scalars(select(PaperRow).where(PaperRow.id.in_(ids)))
        }
        posts = self._latest_posts(ids=ids)
        texts: dict[int, str] = {}
        comments: dict[int, tuple[str, str]] = {}
        if self.query.has_text:
            for row in self._run(self.sql.snippets, ids=self._ids(ids)):
                texts[row[0]] = next((s for s in row[1:] if s and HIGHLIGHT_OPEN in s), row[1])
            chosen = [hit.comment_id for hit in page if hit.comment_id and _from_comment(hit=hit)]
            if chosen:
                rows = self._run(self.sql.comment_snippets, ids=self._ids(chosen))
                comments = {row[0]: (row[1], row[2]) for row in rows}
        result = []
        for hit in page:
            paper, post = papers[hit.paper_id], posts.get(hit.paper_id)
            comment = comments.get(hit.comment_id or 0)
            result.append(
                SearchHit(
                    paper=paper,
                    snippet=comment[0] if comment else _plain(paper=paper, found=texts),
                    from_comment=comment is not None,
                    score=hit.score,
                    comment_user=comment[1] if comment else None,
                    channel=post[0] if post else None,
                    post_date=post[1] if post else None,
                    permalink=post[2] if post else None,
                    votes=VoteCount(up=post[3], down=post[4]) if post else VoteCount(),
                    comments=post[5] if post else 0,
                )
            )
        return tuple(result)

    def _latest_posts(self, *, ids: list[int]) -> dict[int, Any]:
        """Each paper's latest post (within the post filters) with votes and live comments."""

        def count(*conditions: ColumnElement[bool]) -> Any:
            """A correlated count for the post row."""
            return select(func.count()).where(*conditions).correlate(PostRow).scalar_subquery()

        statement = (
            select(
                PostRow.paper_id,
                ChannelRow.channel_id,
                PostRow.local_date,
                PostRow.permalink,
                count(VoteRow.post_id == PostRow.id, VoteRow.value > 0),
                count(VoteRow.post_id == PostRow.id, VoteRow.value < 0),
                count(CommentRow.post_id == PostRow.id, CommentRow.deleted.is_(False)),
            )
            .join(ChannelRow, ChannelRow.id == PostRow.channel_id)
            .where(PostRow.paper_id.in_(ids), PostRow.state == PostState.POSTED.value)
            .order_by(PostRow.local_date, PostRow.id)
        )
        if self.query.channel is not None:
            channel = self.query.channel
            statement = statement.where(ChannelRow.channel_id.in_([channel, channel.lstrip("#")]))
        if self.query.after is not None:
            statement = statement.where(PostRow.local_date > self.query.after)
        if self.query.before is not None:
            statement = statement.where(PostRow.local_date < self.query.before)
        # Ascending by date: the last row of each paper is its latest post.
        return {row[0]: row[1:] for row in self.session.execute(statement)}


def _from_comment(*, hit: _Scored) -> bool:
    """Show the comment when the paper matched only there or the comment weighed more."""
    return hit.comment_id is not None and hit.comment_score > hit.text_score


def _plain(*, paper: Paper, found: dict[int, str]) -> str:
    """The snippet found, else the abstract's first words, else the title."""
    if found.get(paper.id):
        return found[paper.id]
    words = paper.abstract.split()
    lead = " ".join(words[:SNIPPET_TOKENS]) + ("…" if len(words) > SNIPPET_TOKENS else "")
    return lead or paper.title


def search(*, session: Session, query: SearchQuery, limit: int = 5, offset: int = 0) -> SearchPage:
    """One page of papers matching the query, best first (newest first without words)."""
    limit, offset = max(0, limit), max(0, offset)
    run = _Search(session=session, query=query)
    if not query.has_text:
        page, total = run.listing(limit=limit, offset=offset)
        return SearchPage(hits=run.hits(page=page), total=total, offset=offset)
    ranked, total = run.rank(depth=offset + limit, any_term=False)
    if total == 0 and len(query.positives) > 1:
        ranked, total = run.rank(depth=offset + limit, any_term=True)
    return SearchPage(
        hits=run.hits(page=ranked[offset : offset + limit]), total=total, offset=offset
    )
