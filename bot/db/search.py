"""Search papers by their text and by what members said about them (SQLite FTS5 or PostgreSQL).

Score = text match (-bm25(papers_fts, 10.0, 5.0, 1.0); PostgreSQL: ts_rank weighted 1/0.5/0.1)
+ the best live matching comment's bm25, so matching in both ranks above either alone. Never
negative, so the best N sums lie among the best N by text plus the papers with a matching
comment: only those are combined; posts, votes and snippets are read for the page alone.
Papers with every word come first; related papers, with every phrase and some of the words,
follow in their own order and count in the total; when no paper has every word, any word or
phrase is enough (`ranking`, the steps keyword and hybrid search share).

The statements are values built by search_statements; `Execute` is the one place they run.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import text
from sqlalchemy.orm import Session

from bot.db import search_statements as build
from bot.db.search_meetings import LISTS, sessions_on
from bot.db.search_rows import Scored, hit_of, paper_of
from bot.db.search_scope import Scope, Sql, scope_of, scope_statement
from bot.db.search_sql import WALK_PER_HIT
from bot.db.unit import UnitBound
from bot.domain import HIGHLIGHT_OPEN as OPEN
from bot.domain import ChannelKey, SearchHit, SearchPage, WorkspaceKey
from bot.search_query import ANY, EVERY, SOME, SearchQuery, Words, related_words


class Execute:
    """Runs search statements in one session's transaction; rows come back read by name."""

    def __init__(self, *, session: Session) -> None:
        """Take the session's dialect and, on SQLite, its driver connection: SQLAlchemy costs
        ~0.1 ms a statement, as much as a whole FTS5 query on a small archive, and sqlite3
        takes the same :name parameters in the same transaction."""
        self.session = session
        self.dialect = session.get_bind().dialect.name
        self.raw: Any = (
            None
            if self.dialect == "postgresql"
            else session.connection().connection.driver_connection
        )

    def __call__(self, statement: Sql) -> list[Any]:
        """The statement's rows, each read by column name."""
        params = dict(statement.params)
        if self.raw is None:
            return [row._mapping for row in self.session.execute(text(statement.text), params)]
        for name in ("ids", "hidden", *LISTS):  # lists reach SQLite as JSON arrays
            if name in params:
                params[name] = json.dumps(params[name])
        cursor = self.raw.cursor()
        cursor.row_factory = sqlite3.Row  # columns by name, as the mappings above
        return list(cursor.execute(statement.text, params).fetchall())


@dataclass(frozen=True)
class Ranking:
    """Candidates best first, how many papers match, which words the match asked for, and the
    archive's largest paper id (the snippets' plan depends on it)."""

    ranked: list[Scored]
    total: int
    words: Words = EVERY
    size: int = 0

    @property
    def relaxed(self) -> bool:
        """No paper had every word, and some had one of them."""
        return self.words == ANY and self.total > 0


class Searcher:
    """One search in one session: its query and scope; each step builds its statements and
    has them executed."""

    def __init__(self, *, execute: Execute, query: SearchQuery, scope: Scope) -> None:
        """Keep what every step needs (`open_search` reads the scope)."""
        self.execute, self.query, self.scope = execute, query, scope

    def listing(self, *, limit: int, offset: int) -> Ranking:
        """Filters only: latest posts first, then papers never posted, newest first."""
        page, count = build.listing(scope=self.scope, query=self.query, limit=limit, offset=offset)
        total = self.execute(count)[0]["n"]
        ranked = [Scored(paper_id=row["id"], text_score=0.0) for row in self.execute(page)]
        return Ranking(ranked=ranked, total=int(total))

    def rank(self, *, depth: int, words: Words) -> Ranking:
        """Candidates best first (at least the best `depth`) and how many papers match, asking
        for `words`; marked as having every word only when `words` asked for every one."""
        q = build.match(scope=self.scope, query=self.query, words=words)
        statement = build.rank(scope=self.scope, query=self.query, depth=depth, q=q)
        parts: dict[int, list[Any]] = {part: [] for part in range(5)}
        for row in self.execute(statement):
            parts[row["part"]].append(row)
        every = words == EVERY
        found = {
            row["id"]: Scored(row["id"], float(row["s"]), 0.0, None, every) for row in parts[0]
        }
        # A paper found through a comment may also match by text, below the best `depth`.
        both = {row["id"]: float(row["s"]) for row in parts[1]}
        by_comment = parts[2]
        for row in by_comment:
            paper_id = row["id"]
            text_score = both.get(paper_id, 0.0)
            found[paper_id] = Scored(paper_id, text_score, float(row["s"]), row["cid"], every)
        ranked = sorted(found.values(), key=lambda h: (-h.text_score - h.comment_score, h.paper_id))
        matched = int(parts[3][0]["id"])
        return Ranking(
            ranked=ranked,
            total=matched + len(by_comment) - len(both),
            words=words,
            size=int(parts[4][0]["id"] or 0),
        )

    def count(self, *, words: Words) -> int:
        """How many papers match asking for `words` (by text or comment), none of them scored."""
        q = build.match(scope=self.scope, query=self.query, words=words)
        return int(self.execute(build.count(scope=self.scope, query=self.query, q=q))[0]["id"])

    def hits(self, *, page: list[Scored], ranking: Ranking) -> tuple[SearchHit, ...]:
        """Papers, latest posts, votes, comment counts and snippets for the page alone,
        highlighted as `ranking` matched."""
        ids = [hit.paper_id for hit in page]
        if not ids:
            return ()
        scope, query = self.scope, self.query
        rows = self.execute(build.papers(scope=scope, ids=ids))
        papers = {row["id"]: paper_of(row=row) for row in rows}
        rows = self.execute(build.posts(scope=scope, query=query, ids=ids))
        posts = {row["paper_id"]: row for row in rows}
        snippets: dict[int, str] = {}
        comments: dict[int, Any] = {}
        if query.has_text:
            q = build.match(scope=scope, query=query, words=ranking.words)
            # A rowid seek costs ~0.1 ms; walking the matches of a small archive costs less.
            walk = ranking.size <= WALK_PER_HIT * len(ids)
            for row in self.execute(build.snippets(scope=scope, q=q, ids=ids, walk=walk)):
                highlighted = (s for s in (row["abstract"], row["title"]) if s and OPEN in s)
                snippets[row["id"]] = next(highlighted, row["abstract"])
            # The comment is shown when the paper matched only there or it weighed more.
            chosen = [
                h.comment_id
                for h in page
                if h.comment_score > h.text_score and h.comment_id is not None
            ]
            if chosen:
                statement = build.comment_snippets(scope=scope, q=q, ids=chosen)
                comments = {row["id"]: row for row in self.execute(statement)}
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

    def admitted(self, *, ids: list[int]) -> set[int]:
        """The ids passing phrases, -words, author: and the filters; bare words are not asked."""
        statement = build.admitted(scope=self.scope, query=self.query, ids=ids)
        return {int(row["id"]) for row in self.execute(statement)}


def open_search(
    *,
    session: Session,
    query: SearchQuery,
    viewer: ChannelKey | None,
    workspace: WorkspaceKey,
) -> Searcher:
    """A search of one workspace as `viewer` may see it: reads its scope, once for every step."""
    execute = Execute(session=session)
    rows = execute(scope_statement(workspace=workspace, viewer=viewer))
    scope = scope_of(rows=rows, dialect=execute.dialect)
    if query.session is not None:
        scope = replace(scope, sessions=sessions_on(session=session, day=query.session))
    return Searcher(execute=execute, query=query, scope=scope)


def ranking(*, run: Searcher, depth: int) -> Ranking:
    """Keyword candidates: those with every word first, then the related papers (every phrase,
    some of the words), each part best first; any word or phrase when no paper has them all."""
    strict = run.rank(depth=depth, words=EVERY)
    several = related_words(query=run.query)  # none for one word: nothing to relax
    if strict.total == 0:
        relax = several or len(run.query.positives) > 1
        return run.rank(depth=depth, words=ANY) if relax else strict
    if not several:
        return strict
    if strict.total >= depth:  # the pages asked for lie among those with every word
        return replace(strict, total=run.count(words=SOME), words=SOME)
    some = run.rank(depth=depth, words=SOME)
    # `some` holds the best `depth` of a superset of `strict`: past strict's papers, at least
    # the best `depth` - strict.total related ones, so every page up to `depth` is exact.
    seen = {hit.paper_id for hit in strict.ranked}
    related = [hit for hit in some.ranked if hit.paper_id not in seen]
    return replace(some, ranked=strict.ranked + related)


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
    run = open_search(session=session, query=query, viewer=viewer, workspace=workspace)
    if not query.has_text:
        listed = run.listing(limit=limit, offset=offset)
        hits = run.hits(page=listed.ranked, ranking=listed)
        return SearchPage(hits=hits, total=listed.total, offset=offset)
    found = ranking(run=run, depth=offset + limit)
    hits = run.hits(page=found.ranked[offset : offset + limit], ranking=found)
    return SearchPage(hits=hits, total=found.total, offset=offset, relaxed=found.relaxed)


class SqlSearch(UnitBound):
    """ports.SearchStore: keyword search on the unit of work's session."""

    def search(
        self,
        *,
        query: SearchQuery,
        limit: int,
        offset: int,
        viewer: ChannelKey | None,
        workspace: WorkspaceKey,
    ) -> SearchPage:
        """One page of a workspace's papers matching the query (by their text or comments),
        best first; with a viewer, posts and comments of channels it may not see are left out."""
        return search(
            session=self.session,
            query=query,
            limit=limit,
            offset=offset,
            viewer=viewer,
            workspace=workspace,
        )
