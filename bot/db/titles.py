"""Store methods finding a paper by its title, for "have we read it?" by title alone."""

from __future__ import annotations

from sqlalchemy import func, select

from bot.db.convert import to_paper
from bot.db.schema import PaperRow
from bot.db.unit import UnitBound
from bot.db.workspaces import in_workspace
from bot.domain import Paper, WorkspaceKey
from bot.ingest.keys import normalise_for_key


class SqlTitles(UnitBound):
    """ports.PapersStore.paper_by_title: a paper found by its title alone."""

    def paper_by_title(self, *, workspace: WorkspaceKey, title: str) -> Paper | None:
        """The workspace's oldest paper whose title reads the same (case, accents and
        punctuation aside).
        A paper's fingerprint holds its abstract, so a title alone never meets it by key."""
        wanted = normalise_for_key(text=title)
        if not wanted:
            return None
        # SQL narrows by length and first letters (lower() is ASCII-only on SQLite); Python
        # compares exactly.
        head = title.strip()[:3].lower()
        query = (
            select(PaperRow)
            .where(
                in_workspace(workspace=workspace),
                func.lower(func.substr(func.trim(PaperRow.title), 1, 3)) == head,
            )
            .order_by(PaperRow.id)
        )
        for row in self.session.scalars(query):
            if normalise_for_key(text=row.title) == wanted:
                return to_paper(row=row)
        return None
