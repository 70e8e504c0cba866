"""Store methods for workspaces: which exist, and the condition that scopes papers
to one of them."""

from __future__ import annotations

from sqlalchemy import ColumnElement, ScalarSelect, Select, and_, or_, select, update
from sqlalchemy.orm import Session

from bot.db.engine import upsert_insert
from bot.db.schema import ChannelRow, PaperRow, WorkspaceRow
from bot.db.unit import UnitBound
from bot.domain import LOCAL, ChannelKey, WorkspaceKey


def _id_of(*, workspace: WorkspaceKey) -> Select[int]:
    """The query for a workspace's row id."""
    return select(WorkspaceRow.id).where(
        WorkspaceRow.platform == workspace.platform, WorkspaceRow.team == workspace.id
    )


def workspace_row_id(*, workspace: WorkspaceKey) -> ScalarSelect[int]:
    """The row id of a workspace, as a subquery (NULL when it has none yet)."""
    return _id_of(workspace=workspace).scalar_subquery()


def in_workspace(*, workspace: WorkspaceKey) -> ColumnElement[bool]:
    """The papers of one workspace (none, for a workspace not stored yet)."""
    return PaperRow.workspace_id == workspace_row_id(workspace=workspace)


def visible_to(*, viewer: ChannelKey) -> ColumnElement[bool]:
    """The channel rows a viewer may see: itself, and its workspace's public channels."""
    return and_(
        ChannelRow.platform == viewer.platform,
        ChannelRow.workspace == viewer.workspace,
        or_(ChannelRow.external_id == viewer.channel, ChannelRow.private.is_(False)),
    )


def ensure_workspace(*, session: Session, workspace: WorkspaceKey, claim: bool) -> int:
    """The row id of a workspace, made when new. With `claim` (a platform following its
    first channel), a workspace seen while the unclaimed archive is the only one takes that
    archive over: `paperclub import` before the first start fills it, and the workspace that
    starts first is the one that imported. An import naming a workspace never claims."""
    found = session.scalar(_id_of(workspace=workspace))
    if found is not None:
        return int(found)
    if claim and workspace != LOCAL:
        others = session.execute(select(WorkspaceRow.platform, WorkspaceRow.team).limit(2)).all()
        if [tuple(row) for row in others] == [(LOCAL.platform, LOCAL.id)]:
            session.execute(
                update(WorkspaceRow)
                .where(WorkspaceRow.platform == LOCAL.platform, WorkspaceRow.team == LOCAL.id)
                .values(platform=workspace.platform, team=workspace.id)
            )
            return ensure_workspace(session=session, workspace=workspace, claim=False)
    # DO NOTHING: replicas starting together resolve the same workspace at once.
    session.execute(
        upsert_insert(session=session, table=WorkspaceRow.__table__)  # type: ignore[arg-type]
        .values(platform=workspace.platform, team=workspace.id)
        .on_conflict_do_nothing(index_elements=["platform", "team"])
    )
    made = session.scalar(_id_of(workspace=workspace))
    assert made is not None  # inserted now, or by the replica that was first
    return int(made)


class SqlWorkspaces(UnitBound):
    """ports.WorkspacesStore: the workspaces and their row ids."""

    def workspaces(self) -> list[WorkspaceKey]:
        """Every workspace, oldest first."""
        rows = self.session.execute(
            select(WorkspaceRow.platform, WorkspaceRow.team).order_by(WorkspaceRow.id)
        )
        return [WorkspaceKey(platform=platform, id=team) for platform, team in rows]

    def workspace_id(self, *, workspace: WorkspaceKey, claim: bool = False) -> int:
        """The row id of a workspace, made when new (see ensure_workspace)."""
        return ensure_workspace(session=self.session, workspace=workspace, claim=claim)
