"""The authors' index (migration 0017) as one search reads it, for names forgiven
(services/name_lookup): words near a typed one by trigrams, the workspace's names holding such
words (and those not folded yet), and the scope's papers naming them. What users type is
bound, never formatted in; the statements are assembled from this module's constants only.

A list of values (grams, words, name ids) is bound as ONE parameter, never one per element:
author_names is shared by every workspace, so a common surname's names outnumber what a
statement may bind (PostgreSQL: 65,535 parameters; SQLite: 32,766 by default)."""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence

from sqlalchemy import text
from sqlalchemy.orm import Session

from bot.db.search_scope import Scope

_WORDS = (
    "SELECT word FROM author_grams WHERE {grams} AND length BETWEEN :shortest AND :longest "
    "GROUP BY word HAVING count(*) >= :least"
)
# A word so repetitive that no gram need be shared ("aaaaaaaaa"): every word of those lengths.
_ANY_WORDS = "SELECT DISTINCT word FROM author_grams WHERE length BETWEEN :shortest AND :longest"
_HOLDING = "id IN (SELECT name_id FROM author_words WHERE {words})"
# Only names some paper of the scope names are read (and judged): a name of other workspaces'
# papers, or of none left, is skipped by SQL, however common its words.
_NAMED = (
    "EXISTS (SELECT 1 FROM paper_authors{join} "
    "WHERE paper_authors.name_id = author_names.id{where})"
)
_NAMES = (
    "SELECT id, name FROM author_names WHERE {holding} AND {named} "
    "UNION ALL SELECT id, name FROM author_names WHERE folded = :unfolded AND {named}"
)
_PAPERS = (
    "SELECT DISTINCT paper_authors.paper_id AS id FROM paper_authors{join} "
    "WHERE {names}{where} ORDER BY paper_authors.paper_id DESC LIMIT :n"
)
# Names first, then their papers by key: the unary + keeps SQLite (no statistics) from
# walking the workspace's papers by ix_papers_workspace_status_position for each name, which
# at 70,000 names of 350 papers took seconds (24.5M probes) for milliseconds of work.
_IN_WORKSPACE = (
    " JOIN papers ON papers.id = paper_authors.paper_id",
    " AND +papers.workspace_id = :ws",
)
# `column` is one of a list bound as one value: an array on PostgreSQL, a JSON array on SQLite.
_ONE_OF_PG = "{column} = ANY(CAST(:{name} AS {kind}[]))"
_ONE_OF_SQLITE = "{column} IN (SELECT value FROM json_each(:{name}))"


def _one_of(*, scope: Scope, column: str, name: str, kind: str) -> str:
    """The condition that `column` is one of the values bound to `name` (`kind`: their
    PostgreSQL type, text or integer)."""
    template = _ONE_OF_PG if scope.pg else _ONE_OF_SQLITE
    return template.format(column=column, name=name, kind=kind)


def _bound(*, scope: Scope, values: Sequence[str] | Sequence[int]) -> object:
    """`values` as the one parameter _one_of reads: a list (psycopg sends an array) or a JSON
    array's text."""
    return list(values) if scope.pg else json.dumps(list(values))


def _in_scope(*, scope: Scope) -> tuple[str, str]:
    """The join and condition keeping the scope's workspace's papers; none without `scoped`
    (the archive has one workspace: every paper is its own)."""
    return _IN_WORKSPACE if scope.scoped else ("", "")


def words_near(
    *, session: Session, scope: Scope, grams: Sequence[str], shortest: int, longest: int, least: int
) -> list[str]:
    """Author words of `shortest` to `longest` letters holding at least `least` of `grams`."""
    bounds = {"shortest": shortest, "longest": longest}
    if least < 1:
        return [str(row.word) for row in session.execute(text(_ANY_WORDS), bounds)]
    condition = _one_of(scope=scope, column="gram", name="grams", kind="text")
    params = {**bounds, "grams": _bound(scope=scope, values=grams), "least": least}
    rows = session.execute(text(_WORDS.format(grams=condition)), params)
    return [str(row.word) for row in rows]


def names_holding(
    *, session: Session, scope: Scope, words: Sequence[Collection[str]]
) -> list[tuple[int, str]]:
    """(id, name) of the scope's names (named by one of its workspace's papers) holding a
    word of each set, and of its names not folded yet."""
    holding = " AND ".join(
        _HOLDING.format(words=_one_of(scope=scope, column="word", name=f"w{i}", kind="text"))
        for i in range(len(words))
    )
    join, where = _in_scope(scope=scope)
    named = _NAMED.format(join=join, where=where)
    statement = text(_NAMES.format(holding=holding or "1 = 0", named=named))
    params: dict[str, object] = {
        f"w{i}": _bound(scope=scope, values=sorted(group)) for i, group in enumerate(words)
    }
    params.update(unfolded=False, ws=scope.workspace_id)
    return [(int(row.id), str(row.name)) for row in session.execute(statement, params)]


def papers_naming(*, session: Session, scope: Scope, names: Sequence[int], limit: int) -> list[int]:
    """The scope's workspace's papers naming one of `names`, newest first, at most `limit`."""
    if not names:
        return []
    join, where = _in_scope(scope=scope)
    condition = _one_of(scope=scope, column="paper_authors.name_id", name="names", kind="integer")
    statement = text(_PAPERS.format(join=join, where=where, names=condition))
    params = {"names": _bound(scope=scope, values=names), "n": limit, "ws": scope.workspace_id}
    return [int(row.id) for row in session.execute(statement, params)]
