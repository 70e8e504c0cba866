"""Search's statements as plain values: pure functions from the query and the search's scope to
SQL text and its bound parameters. Nothing here touches a session; search.py runs them.

The text comes from search_sql's constants only; whatever users type is a bound parameter.
"""

# S608: the SQL is assembled from search_sql's constants only; what users type is bound.
# ruff: noqa: S608
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.db.search_meetings import meeting_filter
from bot.db.search_scope import Scope, Sql
from bot.db.search_sql import (
    CFG,
    IN_HIDDEN,
    IN_WORKSPACE,
    LIST,
    LIST_COUNT,
    NOT_HIDDEN_PAPER,
    PAPERS,
    PG_VECTOR,
    POSTS,
    SHOWN,
)
from bot.search_query import (
    ANY,
    EVERY,
    SearchQuery,
    Words,
    fts5_authors,
    fts5_excluded,
    fts5_words,
    quote_fts,
    related_words,
    tsquery_terms,
)

_ADMIT = "SELECT papers.id AS id FROM papers WHERE papers.id {ids}{filters}"


def visible(*, scope: Scope, column: str) -> Sql:
    """The condition that a channel row id `column` is one the viewer may see (none for all)."""
    return Sql(text=SHOWN[scope.dialect].format(column=column) if scope.hidden else "")


def tsquery(*, query: SearchQuery, words: Words, negated_only: bool = False) -> Sql:
    """A tsquery of our function calls over bound words (tq0, tq1 ...) asking for `words`."""
    terms: list[str] = []
    phrases: list[str] = []
    negative: list[str] = []
    params: dict[str, Any] = {}
    for index, term in enumerate(tsquery_terms(query=query)):
        params[f"tq{index}"] = term.text
        call = f"{term.function}({CFG}, :tq{index})"
        if term.negated:
            negative.append(call)
        else:
            (phrases if term.function == "phraseto_tsquery" else terms).append(call)
    if negated_only:
        return Sql(text="(" + " || ".join(negative) + ")", params=params)
    related = related_words(query=query) if words != EVERY else ()
    params.update({f"tw{index}": word for index, word in enumerate(related)})
    some = [f"plainto_tsquery({CFG}, :tw{index})" for index in range(len(related))]
    if words == ANY:
        body = "(" + " || ".join(some + phrases if some else terms + phrases) + ")"
    elif some:
        body = "(" + " && ".join([*phrases, "(" + " || ".join(some) + ")"]) + ")"
    else:
        body = "(" + " && ".join(terms + phrases) + ")"
    text = "(" + " && ".join([body, *(f"!!{call}" for call in negative)]) + ")"
    return Sql(text=text, params=params)


def match(*, scope: Scope, query: SearchQuery, words: Words) -> Sql:
    """The text match asking for `words`: a bound FTS5 expression (:q), or a tsquery of bound
    words."""
    if scope.pg:
        return tsquery(query=query, words=words)
    return Sql(text=":q", params={"q": fts5_words(query=query, words=words)})


def post_conditions(*, scope: Scope, query: SearchQuery) -> Sql:
    """The query's own conditions on a post `fq` in channel `fc`: channel and dates."""
    conditions: list[str] = []
    params: dict[str, Any] = {}
    if query.channel is not None:
        bare = query.channel.lstrip("#")
        params.update(f_chan=query.channel, f_chan_bare=bare, f_chan_name=bare.lower())
        # The channel's id as typed or as a mention, or the name the platform gave it
        # (`in:#general`, the names table the running bot fills), in any case.
        conditions.append(
            "(fc.external_id IN (:f_chan, :f_chan_bare) OR EXISTS (SELECT 1 FROM names fn "
            "WHERE fn.platform = fc.platform AND fn.workspace = fc.workspace "
            "AND fn.kind = 'channel' AND fn.external_id = fc.external_id "
            "AND lower(fn.name) = :f_chan_name))"
        )
    for name, day, op in (("after", query.after, ">"), ("before", query.before, "<")):
        if day is not None:
            params[f"f_{name}"] = day if scope.pg else day.isoformat()
            conditions.append(f"fq.local_date {op} :f_{name}")
    return Sql(text="".join(f" AND {condition}" for condition in conditions), params=params)


def post_filters(*, scope: Scope, query: SearchQuery) -> Sql:
    """Conditions on a post `fq` in channel `fc`: visible to the viewer, channel and dates."""
    return visible(scope=scope, column="fq.channel_id") + post_conditions(scope=scope, query=query)


def filters(*, scope: Scope, query: SearchQuery, pid: str) -> Sql:
    """AND-ed conditions on the paper id expression `pid` (one of our column names)."""
    conditions: list[str] = []
    params: dict[str, Any] = {}
    if scope.scoped:
        conditions.append(IN_WORKSPACE.format(pid=pid))
    if query.status is not None:
        params["f_status"] = query.status.value
        conditions.append(
            f"EXISTS (SELECT 1 FROM papers fp WHERE fp.id = {pid} AND fp.status = :f_status)"
        )
    if scope.hidden:  # papers queued by a channel this one may not see
        in_hidden = IN_HIDDEN[scope.dialect]
        conditions.append(NOT_HIDDEN_PAPER.format(pid=pid, in_hidden=in_hidden))
    meetings = meeting_filter(scope=scope, query=query, pid=pid)
    if meetings is not None:
        params.update(meetings.params)
        conditions.append(meetings.text)
    on_post = post_conditions(scope=scope, query=query)
    if on_post.text:
        on_posts = post_filters(scope=scope, query=query)
        params.update(on_posts.params)
        conditions.append(
            "EXISTS (SELECT 1 FROM posts fq JOIN channels fc ON fc.id = fq.channel_id "
            f"WHERE fq.paper_id = {pid} AND fq.state = 'posted'{on_posts.text})"
        )
    if query.authors and scope.pg:
        params.update({f"f_author{i}": name for i, name in enumerate(query.authors)})
        names = [f"phraseto_tsquery({CFG}, :f_author{i})" for i in range(len(query.authors))]
        conditions.append(
            f"EXISTS (SELECT 1 FROM papers fa WHERE fa.id = {pid} AND to_tsvector({CFG}, "
            f"coalesce(fa.authors::text, '')) @@ ({' && '.join(names)}))"
        )
    elif query.authors:
        params["f_authors"] = fts5_authors(query=query)
        conditions.append(
            f"{pid} IN (SELECT rowid FROM papers_fts WHERE papers_fts MATCH :f_authors)"
        )
    return Sql(text="".join(f" AND {condition}" for condition in conditions), params=params)


def excluded(*, scope: Scope, query: SearchQuery) -> Sql:
    """The condition that a paper has none of the query's -words (none without any)."""
    if not query.excluded:
        return Sql()
    words = tsquery(query=query, words=ANY, negated_only=True) if scope.pg else Sql()
    condition = Sql(text=scope.sql["excluded"].format(x=words.text), params=words.params)
    return Sql(params={"f_excluded": fts5_excluded(query=query)}) + condition


def listing(*, scope: Scope, query: SearchQuery, limit: int, offset: int) -> tuple[Sql, Sql]:
    """Filters only, latest posts first, then papers never posted: the page and the count."""
    where = filters(scope=scope, query=query, pid="papers.id") + excluded(scope=scope, query=query)
    return (
        scope.statement(template=LIST, filters=where, bound={"k": limit, "offset": offset}),
        scope.statement(template=LIST_COUNT, filters=where),
    )


def rank(*, scope: Scope, query: SearchQuery, depth: int, q: Sql) -> Sql:
    """The best `depth` candidates by text and comments, the count and the largest id (parts
    0 to 4 of search_sql._RANK) for the match `q`."""
    # One plain word: FTS5 counts by walking one doclist, cheaper than keeping each match.
    # Several words or an exclusion: counting would merge the doclists again, so the
    # matches are kept (materialized) once and read back for the best and the count.
    single = len(query.terms) == 1 and not query.phrases + query.excluded
    template, matches = scope.sql["rank"], scope.sql["matches"]
    if single and not scope.pg:
        template = template.replace("{kept}", "").replace("{m}", f"({matches}) AS m")
    else:
        template = template.replace("{kept}", f", m AS MATERIALIZED ({matches})")
        template = template.replace("{m}", "m")
    on_comments = filters(scope=scope, query=query, pid="posts.paper_id") + visible(
        scope=scope, column="comments.channel_id"
    )
    return scope.statement(
        template=template,
        q=q,
        filters=filters(scope=scope, query=query, pid=scope.sql["pid"]),
        comments=on_comments,
        bound={"k": depth},
    )


def count(*, scope: Scope, query: SearchQuery, q: Sql) -> Sql:
    """How many papers the match `q` finds by their text or a comment, none of them scored (in
    `id`, as the rank statement's counts)."""
    on_comments = filters(scope=scope, query=query, pid="posts.paper_id") + visible(
        scope=scope, column="comments.channel_id"
    )
    return scope.statement(
        template=scope.sql["count"],
        q=q,
        filters=filters(scope=scope, query=query, pid=scope.sql["pid"]),
        comments=on_comments,
    )


def papers(*, scope: Scope, ids: Sequence[int]) -> Sql:
    """The papers with these ids, every column of search_rows.paper_of."""
    return scope.statement(template=PAPERS, bound={"ids": list(ids)})


def posts(*, scope: Scope, query: SearchQuery, ids: Sequence[int]) -> Sql:
    """These papers' delivered posts the viewer may see, with votes and comment counts."""
    return scope.statement(
        template=POSTS,
        filters=post_filters(scope=scope, query=query),
        bound={"ids": list(ids)},
    )


def snippets(*, scope: Scope, q: Sql, ids: Sequence[int], walk: bool) -> Sql:
    """The highlighted abstract and title of these papers; on SQLite found by walking the
    matches (`walk`) or by a rowid seek each."""
    template = scope.sql["snippets"].replace("{plus}", "+" if walk else "")
    return scope.statement(template=template, q=q, bound={"ids": list(ids)})


def comment_snippets(*, scope: Scope, q: Sql, ids: Sequence[int]) -> Sql:
    """The highlighted text and author of these comments."""
    template = scope.sql["comment_snippets"]
    return scope.statement(template=template, q=q, bound={"ids": list(ids)})


def admitted(*, scope: Scope, query: SearchQuery, ids: Sequence[int]) -> Sql:
    """Which of these ids pass phrases, -words, author: and the filters (not bare words)."""
    where = filters(scope=scope, query=query, pid="papers.id")
    if query.phrases and scope.pg:
        names, params = [], {}
        for index, phrase in enumerate(query.phrases):
            params[f"ph{index}"] = phrase
            names.append(f"phraseto_tsquery({CFG}, :ph{index})")
        where += Sql(text=f" AND {PG_VECTOR} @@ ({' && '.join(names)})", params=params)
    elif query.phrases:
        phrases = " ".join(quote_fts(text=p) for p in query.phrases)
        where += Sql(
            text=" AND papers.id IN (SELECT rowid FROM papers_fts WHERE papers_fts MATCH "
            ":f_phrases)",
            params={"f_phrases": phrases},
        )
    where += excluded(scope=scope, query=query)
    return scope.statement(template=_ADMIT, filters=where, bound={"ids": list(ids)})
