"""The store's part for workspaces: every row belongs to one (a Slack team, a Discord guild,
`console` or `local`)."""

from __future__ import annotations

from typing import Protocol

from bot.domain import (
    WorkspaceKey,
)


class WorkspacesStore(Protocol):
    """The workspaces the archive holds, inside one unit of work."""

    def workspaces(self) -> list[WorkspaceKey]:
        """Every workspace, oldest first."""
        ...

    def workspace_id(self, *, workspace: WorkspaceKey, claim: bool = False) -> int:
        """The row id of a workspace, made when new (`claim`: a platform's own workspace,
        which takes over the unclaimed archive when that is the only one)."""
        ...

    def move_papers(self, *, source: WorkspaceKey, target: WorkspaceKey) -> tuple[int, int]:
        """Move a workspace's papers to the end of another's list (made when new); papers the
        target already holds stay. (moved, left behind)."""
        ...

    def queued_by_workspace(self) -> dict[WorkspaceKey, int]:
        """How many papers wait in each workspace that has any."""
        ...
