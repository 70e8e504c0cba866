"""The authors' index (migration 0017) as one search reads it, for names forgiven
(services/name_lookup): words near a typed one by trigrams, the names holding such words (and
those not folded yet), and the scope's papers naming them. What users type is bound, never
formatted in; the statements are assembled from this module's constants only."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from sqlalchemy import bindparam, text
from sqlalchemy.orm import Session

from bot.db.search_scope import Scope

_WORDS = (
    "SELECT word FROM author_grams WHERE gram IN :grams AND length BETWEEN :shortest AND :longest "
    "GROUP BY word HAVING count(*) >= :least"
)
# A word so repetitive that no gram need be shared ("aaaaaaaaa"): every word of those lengths.
_ANY_WORDS = "SELECT DISTINCT word FROM author_grams WHERE length BETWEEN :shortest AND :longest"
_HOLDING = "id IN (SELECT name_id FROM author_words WHERE word IN :w{i})"
_NAMES = (
    "SELECT id, name FROM author_names WHERE {holding} "
    "UNION ALL SELECT id, name FROM author_names WHERE folded = :unfolded"
)
_PAPERS = (
    "SELECT DISTINCT paper_authors.paper_id AS id FROM paper_authors{join} "
    "WHERE paper_authors.name_id IN :names{where} ORDER BY paper_authors.paper_id DESC LIMIT :n"
)
_IN_WORKSPACE = (
    " JOIN papers ON papers.id = paper_authors.paper_id",
    " AND papers.workspace_id = :ws",
)


def words_near(
    *, session: Session, grams: Sequence[str], shortest: int, longest: int, least: int
) -> list[str]:
    """Author words of `shortest` to `longest` letters holding at least `least` of `grams`."""
    bounds = {"shortest": shortest, "longest": longest}
    if least < 1:
        return [str(row.word) for row in session.execute(text(_ANY_WORDS), bounds)]
    statement = text(_WORDS).bindparams(bindparam("grams", expanding=True))
    rows = session.execute(statement, {**bounds, "grams": list(grams), "least": least})
    return [str(row.word) for row in rows]


def names_holding(*, session: Session, words: Sequence[Collection[str]]) -> list[tuple[int, str]]:
    """(id, name) of the names holding a word of each set, and of the names not folded yet."""
    holding = " AND ".join(_HOLDING.format(i=i) for i in range(len(words))) or "1 = 0"
    statement = text(_NAMES.format(holding=holding)).bindparams(
        *(bindparam(f"w{i}", expanding=True) for i in range(len(words)))
    )
    params: dict[str, object] = {f"w{i}": sorted(group) for i, group in enumerate(words)}
    params["unfolded"] = False
    return [(int(row.id), str(row.name)) for row in session.execute(statement, params)]


def papers_naming(*, session: Session, scope: Scope, names: Sequence[int], limit: int) -> list[int]:
    """The scope's workspace's papers naming one of `names`, newest first, at most `limit`."""
    if not names:
        return []
    # Without `scoped`, the archive has one workspace: every paper is its own.
    join, where = _IN_WORKSPACE if scope.scoped else ("", "")
    statement = text(_PAPERS.format(join=join, where=where)).bindparams(
        bindparam("names", expanding=True)
    )
    params = {"names": list(names), "n": limit, "ws": scope.workspace_id}
    return [int(row.id) for row in session.execute(statement, params)]
