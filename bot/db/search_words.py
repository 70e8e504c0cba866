"""The archive's own words near the ones a search typed, for "did you mean": SQLite reads
words_fts_vocab (migration 0016: titles and abstracts as written, accents folded), PostgreSQL
ts_stat over the workspace's titles and abstracts ('simple': lower-cased, not stemmed).

Only words starting with the typed word's letter and within two letters of its length are
read (a typo in the first letter is rare, and this keeps the read to a slice of the
vocabulary); the service measures the distance. What users type is bound, never formatted in.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import text

from bot.db.unit import UnitBound
from bot.domain import WorkspaceKey

SPREAD = 2  # letters a word may be longer or shorter than the typed one
_SQLITE = (
    "SELECT term, doc FROM words_fts_vocab WHERE term >= :lo AND term < :hi "
    "AND length(term) BETWEEN :shortest AND :longest"
)
# ts_stat takes its query as text: only our constant and the workspace's row id (an integer
# read from our own table) are in it. Cost: a pass over the workspace's papers, paid only when
# a search found nothing or little.
_PG = (
    "SELECT word AS term, ndoc AS doc FROM ts_stat('SELECT to_tsvector(''simple''::regconfig, "
    "coalesce(title, '''') || '' '' || coalesce(abstract, '''')) FROM papers "
    "WHERE workspace_id = ' || CAST(CAST(:ws AS integer) AS text)) WHERE {near}"
)
_PG_NEAR = "(left(word, 1) = :lo{i} AND length(word) BETWEEN :shortest{i} AND :longest{i})"
_WORKSPACE_ID = "SELECT id FROM workspaces WHERE platform = :platform AND team = :team"


class SqlWords(UnitBound):
    """ports.WordsStore: the vocabulary near typed words."""

    def words_near(
        self, *, words: Sequence[str], workspace: WorkspaceKey
    ) -> tuple[tuple[str, int], ...]:
        """(word, papers holding it) for the archive's words sharing a first letter with one
        of `words` (lower-cased, accents folded) and within two letters of its length."""
        words = [word for word in words if word]
        if not words:
            return ()
        if self.session.get_bind().dialect.name == "postgresql":
            return self._postgres(words=words, workspace=workspace)
        found: dict[str, int] = {}
        for word in words:
            params = _bounds(word=word)
            params["hi"] = chr(ord(word[0]) + 1)
            for row in self.session.execute(text(_SQLITE), params):
                found[str(row.term)] = int(row.doc)
        return tuple(found.items())

    def _postgres(
        self, *, words: Sequence[str], workspace: WorkspaceKey
    ) -> tuple[tuple[str, int], ...]:
        """The same from ts_stat, scoped to the workspace's papers."""
        key = {"platform": workspace.platform, "team": workspace.id}
        ws = self.session.execute(text(_WORKSPACE_ID), key).scalar()
        if ws is None:
            return ()
        params: dict[str, Any] = {"ws": int(ws)}
        near = []
        for i, word in enumerate(words):
            params.update({f"{name}{i}": value for name, value in _bounds(word=word).items()})
            near.append(_PG_NEAR.format(i=i))
        statement = _PG.format(near=" OR ".join(near))
        rows = self.session.execute(text(statement), params)
        return tuple((str(row.term), int(row.doc)) for row in rows)


def _bounds(*, word: str) -> dict[str, Any]:
    """The first letter and the length range of the words near `word`."""
    return {"lo": word[0], "shortest": max(1, len(word) - SPREAD), "longest": len(word) + SPREAD}
