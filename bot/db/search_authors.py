"""Every (paper id, author) of the papers one search may see by workspace: what forgiving a
name (services/name_match) is matched against. Privacy is left to the search's `admitted`."""

from __future__ import annotations

from bot.db.search_scope import Scope, Sql

_AUTHORS = {
    "sqlite": "SELECT papers.id AS id, a.value AS author FROM papers, json_each(papers.authors) a "
    "WHERE a.type = 'text'{filters}",
    "postgresql": "SELECT papers.id AS id, a.author AS author FROM papers CROSS JOIN LATERAL "
    "json_array_elements_text(coalesce(papers.authors::json, '[]'::json)) AS a(author) "
    "WHERE 1 = 1{filters}",
}


def authors(*, scope: Scope) -> Sql:
    """The statement reading the scope's workspace's authors, one row a name and paper."""
    # Without `scoped`, the archive has one workspace: every paper is its own.
    where = Sql(text=" AND papers.workspace_id = :f_ws") if scope.scoped else Sql()
    return scope.statement(template=_AUTHORS[scope.dialect], filters=where)
