"""The archive's own words near the ones a search typed, for "did you mean": SQLite reads
words_fts_vocab (migration 0016: titles and abstracts as written, accents folded), PostgreSQL
paper_words, the workspace's words kept by a trigger (migration 0018: 'simple', lower-cased,
not stemmed).

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
# paper_words: kept by a trigger as papers change (migration 0018); a count of 0 is a word no
# paper holds any more.
_PG = (
    "SELECT w.word AS term, w.papers AS doc FROM paper_words AS w "
    "JOIN workspaces AS ws ON ws.id = w.workspace_id "
    "WHERE ws.platform = :platform AND ws.team = :team AND w.papers > 0 AND ({near})"
)
# A range on the word (its first letter) rather than left(): the primary key's index serves it.
_PG_NEAR = (
    "(w.word >= :lo{i} AND w.word < :hi{i} AND length(w.word) BETWEEN :shortest{i} AND :longest{i})"
)


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
        """The same from paper_words, the workspace's words."""
        params: dict[str, Any] = {"platform": workspace.platform, "team": workspace.id}
        near = []
        for i, word in enumerate(words):
            bounds = _bounds(word=word) | {"hi": chr(ord(word[0]) + 1)}
            params.update({f"{name}{i}": value for name, value in bounds.items()})
            near.append(_PG_NEAR.format(i=i))
        rows = self.session.execute(text(_PG.format(near=" OR ".join(near))), params)
        return tuple((str(row.term), int(row.doc)) for row in rows)


def _bounds(*, word: str) -> dict[str, Any]:
    """The first letter and the length range of the words near `word`."""
    return {"lo": word[0], "shortest": max(1, len(word) - SPREAD), "longest": len(word) + SPREAD}
