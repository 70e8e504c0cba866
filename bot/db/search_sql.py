"""The search statements, one dialect each: SQLite FTS5 with bm25, PostgreSQL tsvector with
ts_rank. Built from these constants only; whatever users type is bound, never formatted in."""

# S608: the SQL is assembled from this module's constants only; what users type is bound.
# ruff: noqa: S608
from __future__ import annotations

from bot.domain import HIGHLIGHT_CLOSE as CLOSE
from bot.domain import HIGHLIGHT_OPEN as OPEN

SNIPPET_TOKENS = 16
WALK_PER_HIT = 4000  # archive papers per hit up to which snippets walk the matches, not seek
CFG = "'english'::regconfig"
# The exact expressions of the GIN indexes in migration 0001, so the planner uses them.
PG_VECTOR = (
    f"(setweight(to_tsvector({CFG}, coalesce(papers.title, '')), 'A') || "
    f"setweight(to_tsvector({CFG}, coalesce(papers.authors::text, '')), 'B') || "
    f"setweight(to_tsvector({CFG}, coalesce(papers.abstract, '')), 'C'))"
)
_PG_COMMENT = f"to_tsvector({CFG}, comments.text)"
# ts_rank weights are {D, C, B, A}: abstract 0.1, authors 0.5, title 1.0, as 1:5:10 in FTS5.
_PG_RANK = f"ts_rank(ARRAY[0.1, 0.1, 0.5, 1.0]::float4[], {PG_VECTOR}, {{q}})"
_BM25 = "-bm25(papers_fts, 10.0, 5.0, 1.0)"
IN_IDS = "IN (SELECT value FROM json_each(:ids))"
_SNIP = "snippet({}, {}, :o, :c, '…', " + str(SNIPPET_TOKENS) + ")"
_HEADLINE = f"ts_headline({CFG}, {{}}, {{{{q}}}}, :opts)"
HEADLINE_OPTIONS = f'StartSel="{OPEN}", StopSel="{CLOSE}", MaxWords={SNIPPET_TOKENS}, MinWords=8'

# One statement over the text matches {m} and the best comment per paper `c`, its rows told
# apart by `part`: the best :k by text (0), text scores of papers with a matching comment (1;
# not started without any, as the CROSS JOIN's outer row is missing; + keeps the ids from
# becoming FTS5 rowid seeks), the comment matches (2, with the comment's id), the count (3) and
# the archive's largest id (4, for the snippets' plan), those two numbers in `id`.
_RANK = (
    "SELECT 0 AS part, id, s, CAST(NULL AS INTEGER) AS cid FROM (SELECT id, s FROM {m} "
    "ORDER BY s DESC, id LIMIT :k) t UNION ALL SELECT 1, id, s, NULL FROM (SELECT 1 AS one "
    "WHERE EXISTS (SELECT 1 FROM c)) AS any_c CROSS JOIN {m} WHERE +id IN (SELECT pid FROM c) "
    "UNION ALL SELECT 2, pid, s, cid FROM c UNION ALL SELECT 3, count(*), NULL, NULL FROM {m} "
    "UNION ALL SELECT 4, max(id), NULL, NULL FROM papers"
)
# How many papers match {q} by their text or a comment `c`, without scoring any: the count of
# the related papers when every page asked for lies among those with every word ({pid} is the
# text match's id column and {text} its FROM and WHERE, filled in below).
_COUNT = " SELECT count(*) AS id FROM (SELECT {pid} AS id FROM {text} UNION SELECT pid FROM c) u"
_SQLITE_COMMENTS = (
    "WITH cm AS MATERIALIZED (SELECT posts.paper_id AS pid, -bm25(comments_fts) AS s, "
    "comments.id AS cid FROM comments_fts JOIN comments ON comments.id = comments_fts.rowid "
    "JOIN posts ON posts.id = comments.post_id WHERE comments_fts MATCH {q}{comment_filters}), "
    "c AS MATERIALIZED (SELECT pid, max(s) AS s, cid FROM cm GROUP BY pid)"
)
_PG_COMMENTS = (
    "WITH c AS MATERIALIZED (SELECT DISTINCT ON (posts.paper_id) posts.paper_id AS pid, "
    f"ts_rank({_PG_COMMENT}, {{q}}) AS s, comments.id AS cid FROM comments JOIN posts "
    f"ON posts.id = comments.post_id WHERE NOT comments.deleted AND {_PG_COMMENT} @@ {{q}}"
    "{comment_filters} ORDER BY posts.paper_id, s DESC)"
)
# One dialect's statements: {q} is the match expression, {filters} extra conditions.
SQLITE = dict(
    pid="papers_fts.rowid",
    ids=IN_IDS,
    excluded=" AND papers.id NOT IN (SELECT rowid FROM papers_fts WHERE papers_fts MATCH "
    ":f_excluded)",
    # MATERIALIZED: FTS5 refuses bm25() in an aggregate; max() then keeps its row's cid.
    matches=f"SELECT papers_fts.rowid AS id, {_BM25} AS s FROM papers_fts "
    "WHERE papers_fts MATCH {q}{filters}",
    rank=_SQLITE_COMMENTS + "{kept} " + _RANK,
    count=_SQLITE_COMMENTS
    + _COUNT.replace("{pid}", "papers_fts.rowid").replace(
        "{text}", "papers_fts WHERE papers_fts MATCH {q}{filters}"
    ),
    snippets=f"SELECT papers_fts.rowid AS id, {_SNIP.format('papers_fts', 2)} AS abstract, "
    f"{_SNIP.format('papers_fts', 0)} AS title FROM papers_fts WHERE papers_fts MATCH {{q}} "
    f"AND {{plus}}papers_fts.rowid {IN_IDS}",
    comment_snippets=f"SELECT comments_fts.rowid AS id, {_SNIP.format('comments_fts', 0)} AS "
    "snippet, comments.user_id AS user_id FROM comments_fts "
    "JOIN comments ON comments.id = comments_fts.rowid "
    f"WHERE comments_fts MATCH {{q}} AND comments_fts.rowid {IN_IDS}",
)
POSTGRES = dict(
    pid="papers.id",
    ids="= ANY(:ids)",
    excluded=f" AND NOT ({PG_VECTOR} @@ {{x}})",
    rank=_PG_COMMENTS + "{kept} " + _RANK,
    count=_PG_COMMENTS
    + _COUNT.replace("{pid}", "papers.id").replace(
        "{text}", f"papers WHERE {PG_VECTOR} @@ {{q}}{{filters}}"
    ),
    matches=f"SELECT papers.id AS id, {_PG_RANK} AS s FROM papers "
    f"WHERE {PG_VECTOR} @@ {{q}}{{filters}}",
    snippets=f"SELECT papers.id AS id, {_HEADLINE.format('papers.abstract')} AS abstract, "
    f"{_HEADLINE.format('papers.title')} AS title FROM papers WHERE papers.id = ANY(:ids)",
    comment_snippets=f"SELECT comments.id AS id, {_HEADLINE.format('comments.text')} AS snippet, "
    "comments.user_id AS user_id FROM comments WHERE comments.id = ANY(:ids)",
)
_COLUMNS = "id, title, abstract, authors, url, arxiv_id, doi, source, added_by, added_at"
PAPERS = (
    f"SELECT {_COLUMNS}, position, status, queue_channel_id, title_derived, list_id "
    "FROM papers WHERE id {ids}"
)
# Aliases fq/fc are the ones the post filters use; ascending, so each paper's last row wins.
POSTS = (
    "SELECT fq.paper_id AS paper_id, fc.platform AS platform, fc.workspace AS workspace, "
    "fc.external_id AS channel, fq.local_date AS local_date, fq.permalink AS permalink, "
    "(SELECT count(*) FROM votes v WHERE v.post_id = fq.id AND v.value > 0) AS up, "
    "(SELECT count(*) FROM votes v WHERE v.post_id = fq.id AND v.value < 0) AS down, "
    "(SELECT count(*) FROM comments k WHERE k.post_id = fq.id AND NOT k.deleted) AS comments "
    "FROM posts fq JOIN channels fc ON fc.id = fq.channel_id "
    "WHERE fq.paper_id {ids} AND fq.state = 'posted'{filters} ORDER BY fq.local_date, fq.id"
)
LIST = (
    "SELECT papers.id AS id FROM papers LEFT JOIN (SELECT paper_id, max(local_date) AS d "
    "FROM posts WHERE state = 'posted' GROUP BY paper_id) lp ON lp.paper_id = papers.id WHERE 1 = 1"
    "{filters} ORDER BY lp.d IS NULL, lp.d DESC, papers.id DESC LIMIT :k OFFSET :offset"
)
LIST_COUNT = "SELECT count(*) AS n FROM papers WHERE 1 = 1{filters}"
# The channels a viewer may not see (part 1, their row ids in `id`): other platforms and
# workspaces, others' private channels. Read once a search, after WORKSPACE; none (the usual
# case) means no privacy condition is needed at all.
HIDDEN_CHANNELS = (
    "SELECT 1, v.id, NULL FROM channels v WHERE NOT (v.platform = :v_platform "
    "AND v.workspace = :v_workspace AND (v.external_id = :v_channel OR NOT v.private))"
)
# A channel row id outside the hidden ones, and a paper not queued for one of them; per
# candidate (a rowid lookup), not a scan of every paper, as queue_channel_id has no index.
SHOWN = {
    "sqlite": " AND {column} NOT IN (SELECT value FROM json_each(:hidden))",
    "postgresql": " AND {column} <> ALL(:hidden)",
}
NOT_HIDDEN_PAPER = (
    "NOT EXISTS (SELECT 1 FROM papers h WHERE h.id = {pid} AND h.queue_channel_id {in_hidden})"
)
# The asked workspace's row id (part 0, NULL when it has none yet) and how many workspaces
# exist.
WORKSPACE = (
    "SELECT 0 AS part, (SELECT id FROM workspaces WHERE platform = :w_platform AND team = "
    ":w_team) AS id, (SELECT count(*) FROM workspaces) AS workspaces"
)
# A candidate paper of the asked workspace: a rowid look-up per candidate.
IN_WORKSPACE = "EXISTS (SELECT 1 FROM papers fw WHERE fw.id = {pid} AND fw.workspace_id = :f_ws)"
IN_HIDDEN = {"sqlite": "IN (SELECT value FROM json_each(:hidden))", "postgresql": "= ANY(:hidden)"}
