"""A search's values: `Sql` (statement text and its bound parameters) and `Scope` (what one
search may see, read once by its first statement)."""

# S608: the SQL is assembled from search_sql's constants only; what users type is bound.
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.db.search_sql import HEADLINE_OPTIONS, HIDDEN_CHANNELS, POSTGRES, SQLITE, WORKSPACE
from bot.domain import HIGHLIGHT_CLOSE as CLOSE
from bot.domain import HIGHLIGHT_OPEN as OPEN
from bot.domain import ChannelKey, WorkspaceKey


@dataclass(frozen=True)
class Sql:
    """A statement or a piece of one: its text and the values bound to its :names."""

    text: str = ""
    params: Mapping[str, Any] = field(default_factory=dict)

    def __add__(self, other: Sql) -> Sql:
        """Both texts one after the other, with both pieces' values."""
        return Sql(text=self.text + other.text, params={**self.params, **other.params})


@dataclass(frozen=True)
class Scope:
    """What one search may see, read once before its statements: the workspace's row id (-1
    when it has none yet), whether candidates need the workspace condition at all (with one
    workspace every paper is its own), the channel row ids the viewer may not see, and with
    `session:` the ids of that date's sessions (search_meetings.sessions_on)."""

    dialect: str
    workspace_id: int
    scoped: bool
    hidden: tuple[int, ...] = ()
    sessions: tuple[int, ...] = ()

    @property
    def pg(self) -> bool:
        """Whether the statements are PostgreSQL's (else SQLite's)."""
        return self.dialect == "postgresql"

    @property
    def sql(self) -> dict[str, str]:
        """The dialect's own statements (search_sql.SQLITE or POSTGRES)."""
        return POSTGRES if self.pg else SQLITE

    def statement(
        self,
        *,
        template: str,
        q: Sql | None = None,
        filters: Sql | None = None,
        comments: Sql | None = None,
        bound: Mapping[str, Any] | None = None,
    ) -> Sql:
        """A whole statement: `template` with the match `q` and the `filters` and `comments`
        conditions filled in, binding their values, `bound`, and those any statement may use
        (highlight marks, the workspace, the hidden channels)."""
        pieces = [piece or Sql() for piece in (q, filters, comments)]
        params: dict[str, Any] = {"o": OPEN, "c": CLOSE, "opts": HEADLINE_OPTIONS}
        params["f_ws"] = self.workspace_id
        if self.hidden:
            params["hidden"] = list(self.hidden)
        for piece in pieces:
            params.update(piece.params)
        params.update(bound or {})
        text = template.format(
            q=q.text if q else ":q",
            filters=pieces[1].text,
            comment_filters=pieces[2].text,
            ids=self.sql["ids"],
        )
        return Sql(text=text, params=params)


def scope_statement(*, workspace: WorkspaceKey, viewer: ChannelKey | None) -> Sql:
    """The workspace's row id and how many there are (part 0) and, with a viewer, the channels
    it may not see (part 1): one statement, as it runs before every search."""
    params = {"w_platform": workspace.platform, "w_team": workspace.id}
    if viewer is None:
        return Sql(text=WORKSPACE, params=params)
    viewed = {
        "v_platform": viewer.platform,
        "v_workspace": viewer.workspace,
        "v_channel": viewer.channel,
    }
    return Sql(text=f"{WORKSPACE} UNION ALL {HIDDEN_CHANNELS}", params=params | viewed)


def scope_of(*, rows: Sequence[Any], dialect: str) -> Scope:
    """The scope read by scope_statement's rows (by name)."""
    own = next(row for row in rows if row["part"] == 0)
    found, count = own["id"], own["workspaces"]
    return Scope(
        dialect=dialect,
        workspace_id=-1 if found is None else int(found),
        scoped=found is None or int(count) > 1,
        hidden=tuple(sorted(row["id"] for row in rows if row["part"] == 1)),
    )
