"""Store methods for workspaces: which exist, and the condition that scopes papers
to one of them."""

from __future__ import annotations

from sqlalchemy import ColumnElement, ScalarSelect, Select, and_, delete, func, or_, select, update
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


# The console's trial workspace, and what its sample reading list is added by (see
# bot/console/plugin.py): the sample is never carried over into a group's workspace.
CONSOLE = WorkspaceKey(platform="console", id="")
SAMPLE_ADDED_BY = "sample"
# What a paper says it is when it was handed over from the console's trial: queued again, as
# the console's posts were tries, not the group's reading.
_TRIED = ("posted", "skipped")


def ensure_workspace(*, session: Session, workspace: WorkspaceKey, claim: bool) -> int:
    """The row id of a workspace, made when new. With `claim` (a platform following its first
    channel), papers imported before any platform started go where the organiser meant:

    - the console, seen while the unclaimed archive `local` is the only workspace, takes it
      over (a console trial shows the imported list);
    - a Slack or Discord workspace seen while no other platform's workspace exists takes over
      `local` (when it holds papers), else `console` (when it holds papers someone imported,
      not only the sample list): the imported list is posted by the group's platform, and
      papers the console trial posted or skipped are queued again.

    Anything else (several platform workspaces) never moves; the start-up log names where the
    papers are and `paperclub workspaces move`. An import naming a workspace never claims."""
    found = session.scalar(_id_of(workspace=workspace))
    if found is not None:
        return int(found)
    if claim and workspace != LOCAL:
        held = _taken_over_by(session=session, workspace=workspace)
        if held is not None:
            session.execute(
                update(WorkspaceRow)
                .where(WorkspaceRow.id == held)
                .values(platform=workspace.platform, team=workspace.id)
            )
            if workspace != CONSOLE:
                # The console's channels are not the group's: its queues join the shared list.
                session.execute(
                    update(PaperRow)
                    .where(PaperRow.workspace_id == held)
                    .values(queue_channel_id=None)
                )
                session.execute(
                    update(PaperRow)
                    .where(PaperRow.workspace_id == held, PaperRow.status.in_(_TRIED))
                    .values(status="queued")
                )
            return held
    # DO NOTHING: replicas starting together resolve the same workspace at once.
    session.execute(
        upsert_insert(session=session, table=WorkspaceRow.__table__)  # type: ignore[arg-type]
        .values(platform=workspace.platform, team=workspace.id)
        .on_conflict_do_nothing(index_elements=["platform", "team"])
    )
    made = session.scalar(_id_of(workspace=workspace))
    assert made is not None  # inserted now, or by the replica that was first
    return int(made)


def _taken_over_by(*, session: Session, workspace: WorkspaceKey) -> int | None:
    """The row id of the workspace `workspace` takes over when it first starts (see
    ensure_workspace), or None."""
    rows = session.execute(select(WorkspaceRow.id, WorkspaceRow.platform, WorkspaceRow.team))
    stored = {WorkspaceKey(platform=p, id=t): int(i) for i, p, t in rows}
    if workspace == CONSOLE:
        return stored[LOCAL] if list(stored) == [LOCAL] else None
    if not stored or any(key not in (LOCAL, CONSOLE) for key in stored):
        return None  # a new archive, or another platform already started: nothing moves
    if LOCAL in stored and _holds(session=session, row_id=stored[LOCAL], imported=False):
        return stored[LOCAL]
    if CONSOLE in stored and _holds(session=session, row_id=stored[CONSOLE], imported=True):
        return stored[CONSOLE]
    if list(stored) == [LOCAL]:
        return stored[LOCAL]  # an empty unclaimed archive: taken over as before, no row left
    return None


def _holds(*, session: Session, row_id: int, imported: bool) -> bool:
    """Whether a workspace holds any paper (`imported`: any but the console's sample)."""
    query = select(PaperRow.id).where(PaperRow.workspace_id == row_id)
    if imported:
        query = query.where(or_(PaperRow.added_by.is_(None), PaperRow.added_by != SAMPLE_ADDED_BY))
    return session.scalar(query.limit(1)) is not None


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

    def move_papers(self, *, source: WorkspaceKey, target: WorkspaceKey) -> tuple[int, int]:
        """Move a workspace's papers to the end of another's list (made when new), in their
        order, with their posts, votes and comments; a paper the target already holds (same
        arXiv id, DOI or text) stays where it is. From the console's trial, papers it posted
        or skipped are queued again. (moved, left behind)."""
        source_id = self.session.scalar(_id_of(workspace=source))
        if source_id is None:
            return 0, 0
        target_id = ensure_workspace(session=self.session, workspace=target, claim=False)
        rows = self.session.execute(
            select(PaperRow.id, PaperRow.arxiv_id, PaperRow.doi, PaperRow.fingerprint)
            .where(PaperRow.workspace_id == source_id)
            .order_by(PaperRow.position, PaperRow.id)
        ).all()
        held = self.session.execute(
            select(PaperRow.arxiv_id, PaperRow.doi, PaperRow.fingerprint).where(
                PaperRow.workspace_id == target_id
            )
        ).all()
        keys = {(n, value) for row in held for n, value in enumerate(row) if value}
        last = self.session.scalar(
            select(func.coalesce(func.max(PaperRow.position), 0)).where(
                PaperRow.workspace_id == target_id
            )
        )
        moved = 0
        for paper_id, *ids in rows:
            mine = {(n, value) for n, value in enumerate(ids) if value}
            if mine & keys:
                continue
            keys |= mine
            moved += 1
            values: dict[str, object] = {
                "workspace_id": target_id,
                "position": int(last or 0) + moved,
                "queue_channel_id": None,  # the source's channels are not the target's
            }
            self.session.execute(update(PaperRow).where(PaperRow.id == paper_id).values(values))
        if source == CONSOLE:
            self.session.execute(
                update(PaperRow)
                .where(PaperRow.workspace_id == target_id, PaperRow.status.in_(_TRIED))
                .where(PaperRow.id.in_([row[0] for row in rows]))
                .values(status="queued")
            )
        if moved == len(rows):  # nothing left: the empty workspace goes, so that the CLI's
            # "the only workspace" default still holds (a platform makes its own again)
            self.session.execute(delete(WorkspaceRow).where(WorkspaceRow.id == source_id))
        return moved, len(rows) - moved

    def queued_by_workspace(self) -> dict[WorkspaceKey, int]:
        """How many papers wait in each workspace (every queue of it), for start-up's word on
        where an empty channel's papers are."""
        rows = self.session.execute(
            select(WorkspaceRow.platform, WorkspaceRow.team, func.count(PaperRow.id))
            .join(PaperRow, PaperRow.workspace_id == WorkspaceRow.id)
            .where(PaperRow.status == "queued")
            .group_by(WorkspaceRow.platform, WorkspaceRow.team)
        )
        return {WorkspaceKey(platform=p, id=t): int(n) for p, t, n in rows}
