"""Search papers by their text and by what members said about them (SQLite FTS5 or PostgreSQL).

Score = text match (-bm25(papers_fts, 10.0, 5.0, 1.0); PostgreSQL: ts_rank weighted 1/0.5/0.1)
+ the best live matching comment's bm25, so matching in both ranks above either alone. Never
negative, so the best N sums lie among the best N by text plus the papers with a matching
comment: only those are combined; posts, votes and snippets are read for the page alone.
Every word must match; when no paper has them all, any of them.
"""

# S608: the SQL is assembled from search_sql's constants only; what users type is bound.
# ruff: noqa: S608
from __future__ import annotations

import json
import sqlite3
from typing import Any

from sqlalchemy import text
from sqlalchemy.orm import Session

from bot.db.search_rows import Scored, hit_of, paper_of
from bot.db.search_sql import (
    CFG,
    HEADLINE_OPTIONS,
    HIDDEN_CHANNELS,
    IN_HIDDEN,
    IN_WORKSPACE,
    LIST,
    LIST_COUNT,
    NOT_HIDDEN_PAPER,
    PAPERS,
    POSTGRES,
    POSTS,
    SHOWN,
    SQLITE,
    WALK_PER_HIT,
    WORKSPACE,
)
from bot.domain import HIGHLIGHT_CLOSE as CLOSE
from bot.domain import HIGHLIGHT_OPEN as OPEN
from bot.domain import (
    ChannelKey,
    SearchHit,
    SearchPage,
    WorkspaceKey,
)
from bot.search_query import SearchQuery, fts5_authors, fts5_excluded, fts5_match, tsquery_terms


class Searcher:
    """One search in one session: the dialect's statements and the query's bound values."""

    def __init__(
        self,
        *,
        session: Session,
        query: SearchQuery,
        viewer: ChannelKey | None,
        workspace: WorkspaceKey,
    ) -> None:
        """Pick the dialect; SQLite statements go straight to the session's own connection."""
        self.session, self.query, self.q, self.viewer = session, query, ":q", viewer
        self.pg = session.get_bind().dialect.name == "postgresql"
        self.sql = POSTGRES if self.pg else SQLITE
        # SQLAlchemy costs ~0.1 ms a statement, as much as a whole FTS5 query on a small
        # archive; sqlite3 takes the same :name parameters, in the same transaction.
        self.raw: Any = None if self.pg else session.connection().connection.driver_connection
        self.params: dict[str, Any] = {"o": OPEN, "c": CLOSE, "opts": HEADLINE_OPTIONS}
        self.dialect = "postgresql" if self.pg else "sqlite"
        self.hidden: list[int] = []
        self.size = 0  # the largest paper id, read with the ranking
        # The workspace's row id and how many there are (with one, most deployments, every
        # paper is its own and no candidate pays for the condition), and the channels the
        # viewer may not see: one statement, as it runs before every search.
        sql, key = WORKSPACE, {"w_platform": workspace.platform, "w_team": workspace.id}
        if viewer is not None:
            sql = f"{WORKSPACE} UNION ALL {HIDDEN_CHANNELS}"
            key |= {
                "v_platform": viewer.platform,
                "v_workspace": viewer.workspace,
                "v_channel": viewer.channel,
            }
        rows = self.rows(sql, **key)
        own = next(row for row in rows if row["part"] == 0)
        found, count = own["id"], own["workspaces"]
        hidden = [row for row in rows if row["part"] == 1]
        self.params["f_ws"] = -1 if found is None else int(found)
        self.scoped = found is None or int(count) > 1
        if viewer is not None:
            self.hidden = sorted(row["id"] for row in hidden)
            self.params["hidden"] = self.hidden

    def visible(self, *, column: str) -> str:
        """The condition that a channel row id `column` is one the viewer may see ('' for all)."""
        return SHOWN[self.dialect].format(column=column) if self.hidden else ""

    def rows(self, sql: str, *, filters: str = "", comments: str = "", **extra: Any) -> list[Any]:
        """Run one of our statements with the query's bound values."""
        statement = sql.format(
            q=self.q, filters=filters, comment_filters=comments, ids=self.sql["ids"]
        )
        params = {**self.params, **extra}
        if self.raw is None:
            return [row._mapping for row in self.session.execute(text(statement), params)]
        for name in ("ids", "hidden"):  # lists reach SQLite as JSON arrays
            if name in params:
                params[name] = json.dumps(params[name])
        cursor = self.raw.cursor()
        cursor.row_factory = sqlite3.Row  # columns by name, as the mappings above
        return list(cursor.execute(statement, params).fetchall())

    def tsquery(self, *, any_term: bool, negated_only: bool = False) -> str:
        """A tsquery of our function calls over bound words (tq0, tq1 ...)."""
        positive: list[str] = []
        negative: list[str] = []
        for index, term in enumerate(tsquery_terms(query=self.query)):
            self.params[f"tq{index}"] = term.text
            call = f"{term.function}({CFG}, :tq{index})"
            (negative if term.negated else positive).append(call)
        if negated_only:
            return "(" + " || ".join(negative) + ")"
        body = "(" + (" || " if any_term else " && ").join(positive) + ")"
        return "(" + " && ".join([body, *(f"!!{call}" for call in negative)]) + ")"

    def filters(self, *, pid: str) -> str:
        """AND-ed conditions on the paper id expression `pid` (one of our column names)."""
        query, conditions = self.query, []
        if self.scoped:
            conditions.append(IN_WORKSPACE.format(pid=pid))
        if query.status is not None:
            self.params["f_status"] = query.status.value
            conditions.append(
                f"EXISTS (SELECT 1 FROM papers fp WHERE fp.id = {pid} AND fp.status = :f_status)"
            )
        if self.hidden:  # papers queued by a channel this one may not see
            in_hidden = IN_HIDDEN[self.dialect]
            conditions.append(NOT_HIDDEN_PAPER.format(pid=pid, in_hidden=in_hidden))
        if self.post_conditions():
            on_posts = self.post_filters()
            conditions.append(
                "EXISTS (SELECT 1 FROM posts fq JOIN channels fc ON fc.id = fq.channel_id "
                f"WHERE fq.paper_id = {pid} AND fq.state = 'posted'{on_posts})"
            )
        if query.authors and self.pg:
            self.params.update({f"f_author{i}": name for i, name in enumerate(query.authors)})
            names = [f"phraseto_tsquery({CFG}, :f_author{i})" for i in range(len(query.authors))]
            conditions.append(
                f"EXISTS (SELECT 1 FROM papers fa WHERE fa.id = {pid} AND to_tsvector({CFG}, "
                f"coalesce(fa.authors::text, '')) @@ ({' && '.join(names)}))"
            )
        elif query.authors:
            self.params["f_authors"] = fts5_authors(query=query)
            conditions.append(
                f"{pid} IN (SELECT rowid FROM papers_fts WHERE papers_fts MATCH :f_authors)"
            )
        return "".join(f" AND {condition}" for condition in conditions)

    def post_filters(self) -> str:
        """Conditions on a post `fq` in channel `fc`: visible to the viewer, channel and dates."""
        return self.visible(column="fq.channel_id") + "".join(
            f" AND {condition}" for condition in self.post_conditions()
        )

    def post_conditions(self) -> list[str]:
        """The query's own conditions on a post `fq` in channel `fc`: channel and dates."""
        query, conditions = self.query, []
        if query.channel is not None:
            self.params.update(f_chan=query.channel, f_chan_bare=query.channel.lstrip("#"))
            conditions.append("fc.external_id IN (:f_chan, :f_chan_bare)")
        for name, day, op in (("after", query.after, ">"), ("before", query.before, "<")):
            if day is not None:
                self.params[f"f_{name}"] = day if self.pg else day.isoformat()
                conditions.append(f"fq.local_date {op} :f_{name}")
        return conditions

    def listing(self, *, limit: int, offset: int) -> tuple[list[Scored], int]:
        """Filters only: latest posts first, then papers never posted, newest first."""
        filters = self.filters(pid="papers.id")
        if self.query.excluded:
            self.params["f_excluded"] = fts5_excluded(query=self.query)
            excluded = self.tsquery(any_term=True, negated_only=True) if self.pg else ""
            filters += self.sql["excluded"].format(x=excluded)
        page = self.rows(LIST, filters=filters, k=limit, offset=offset)
        total = self.rows(LIST_COUNT, filters=filters)[0]["n"]
        return [Scored(paper_id=row["id"], text_score=0.0) for row in page], int(total)

    def rank(self, *, depth: int, any_term: bool) -> tuple[list[Scored], int]:
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
        on_comments = self.filters(pid="posts.paper_id") + self.visible(
            column="comments.channel_id"
        )
        rows = self.rows(sql, filters=filters, comments=on_comments, k=depth)
        parts: dict[int, list[Any]] = {part: [] for part in range(5)}
        for row in rows:
            parts[row["part"]].append(row)
        found = {row["id"]: Scored(row["id"], float(row["s"])) for row in parts[0]}
        # A paper found through a comment may also match by text, below the best `depth`.
        both = {row["id"]: float(row["s"]) for row in parts[1]}
        by_comment = parts[2]
        for row in by_comment:
            paper_id = row["id"]
            found[paper_id] = Scored(paper_id, both.get(paper_id, 0.0), float(row["s"]), row["cid"])
        ranked = sorted(found.values(), key=lambda h: (-h.text_score - h.comment_score, h.paper_id))
        matched = int(parts[3][0]["id"])
        self.size = int(parts[4][0]["id"] or 0)
        return ranked, matched + len(by_comment) - len(both)

    def hits(self, *, page: list[Scored]) -> tuple[SearchHit, ...]:
        """Papers, latest posts, votes, comment counts and snippets for the page alone."""
        ids = [hit.paper_id for hit in page]
        if not ids:
            return ()
        papers = {row["id"]: paper_of(row=row) for row in self.rows(PAPERS, ids=ids)}
        posts = {
            row["paper_id"]: row for row in self.rows(POSTS, filters=self.post_filters(), ids=ids)
        }
        snippets: dict[int, str] = {}
        comments: dict[int, Any] = {}
        if self.query.has_text:
            # A rowid seek costs ~0.1 ms; walking the matches of a small archive costs less.
            plus = "+" if self.size <= WALK_PER_HIT * len(ids) else ""
            for row in self.rows(self.sql["snippets"].replace("{plus}", plus), ids=ids):
                highlighted = (s for s in (row["abstract"], row["title"]) if s and OPEN in s)
                snippets[row["id"]] = next(highlighted, row["abstract"])
            # The comment is shown when the paper matched only there or it weighed more.
            chosen = [h.comment_id for h in page if h.comment_score > h.text_score]
            if chosen:
                comment_rows = self.rows(self.sql["comment_snippets"], ids=chosen)
                comments = {row["id"]: row for row in comment_rows}
        return tuple(
            hit_of(
                hit=hit,
                paper=papers[hit.paper_id],
                post=posts.get(hit.paper_id),
                comment=comments.get(hit.comment_id or 0),
                snippet=snippets.get(hit.paper_id),
            )
            for hit in page
        )


def search(
    *,
    session: Session,
    query: SearchQuery,
    limit: int = 5,
    offset: int = 0,
    viewer: ChannelKey | None = None,
    workspace: WorkspaceKey,
) -> SearchPage:
    """One page of a workspace's papers matching the query, best first (latest posts first
    without words); with a viewer, only what that channel may see of posts and comments."""
    limit, offset = max(0, limit), max(0, offset)
    run = Searcher(session=session, query=query, viewer=viewer, workspace=workspace)
    if not query.has_text:
        page, total = run.listing(limit=limit, offset=offset)
        return SearchPage(hits=run.hits(page=page), total=total, offset=offset)
    ranked, total = run.rank(depth=offset + limit, any_term=False)
    relaxed = total == 0 and len(query.positives) > 1
    if relaxed:
        ranked, total = run.rank(depth=offset + limit, any_term=True)
    hits = run.hits(page=ranked[offset : offset + limit])
    return SearchPage(hits=hits, total=total, offset=offset, relaxed=relaxed and bool(total))
