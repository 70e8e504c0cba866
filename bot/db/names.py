"""ports.NamesStore over SQL: one row per (platform, workspace, kind, id), upserted."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from sqlalchemy import Exists, and_, exists, func, select, union

from bot.db.engine import upsert_insert
from bot.db.schema import ChannelRow, CommentRow, PostRow, VoteRow
from bot.db.schema_meetings import SessionRow
from bot.db.schema_presenters import SessionPresenterRow
from bot.db.schema_upkeep import NameRow
from bot.db.unit import UnitBound
from bot.domain import ChannelKey, WorkspaceKey
from bot.ports.names import CHANNEL, PERSON, NameWanted

NAME_MAX = 200  # the column's width; a longer display name is cut


class SqlNames(UnitBound):
    """ports.NamesStore: names the platform gave, for the web archive."""

    def record_names(
        self, *, workspace: WorkspaceKey, kind: str, names: Mapping[str, str], now: datetime
    ) -> None:
        """Upsert each name with the time it was asked."""
        if not names:
            return
        table = NameRow.__table__
        rows = [
            {
                "platform": workspace.platform,
                "workspace": workspace.id,
                "kind": kind,
                "external_id": key[:64],
                "name": name[:NAME_MAX],
                "seen_at": now,
            }
            for key, name in names.items()
        ]
        insert = upsert_insert(session=self.session, table=table)  # type: ignore[arg-type]
        statement = insert.values(rows).on_conflict_do_update(
            index_elements=["platform", "workspace", "kind", "external_id"],
            set_={"name": insert.excluded.name, "seen_at": insert.excluded.seen_at},
        )
        self.session.execute(statement)

    def names_in(self, *, workspace: WorkspaceKey, kind: str) -> dict[str, str]:
        """Every known (non-empty) name of this kind in the workspace, by id."""
        rows = self.session.execute(
            select(NameRow.external_id, NameRow.name).where(
                NameRow.platform == workspace.platform,
                NameRow.workspace == workspace.id,
                NameRow.kind == kind,
                NameRow.name != "",
            )
        )
        return {key: name for key, name in rows}

    def names_wanted(self, *, platform: str, before: datetime, limit: int) -> list[NameWanted]:
        """Channels first, then people who voted, commented or presented a session, whose name
        is missing or old."""

        def fresh(*, kind: str, key: Any) -> Exists:
            """A row naming `key` of this kind, asked on `before` or later."""
            return exists().where(
                NameRow.platform == ChannelRow.platform,
                NameRow.workspace == ChannelRow.workspace,
                NameRow.kind == kind,
                NameRow.external_id == key,
                NameRow.seen_at >= before,
            )

        channels = self.session.execute(
            select(ChannelRow.workspace, ChannelRow.external_id)
            .where(
                ChannelRow.platform == platform, ~fresh(kind=CHANNEL, key=ChannelRow.external_id)
            )
            .order_by(ChannelRow.id)
            .limit(limit)
        ).all()
        wanted = [
            NameWanted(
                channel=ChannelKey(platform=platform, workspace=ws, channel=cid),
                kind=CHANNEL,
                external_id=cid,
            )
            for ws, cid in channels
        ]
        if len(wanted) >= limit:
            return wanted
        spoke = union(
            select(VoteRow.user_id.label("user_id"), PostRow.channel_id.label("channel_id")).join(
                PostRow, PostRow.id == VoteRow.post_id
            ),
            select(CommentRow.user_id, CommentRow.channel_id),
            select(SessionPresenterRow.user_id, SessionRow.channel_id).join(
                SessionRow, SessionRow.id == SessionPresenterRow.session_id
            ),
        ).subquery()
        people = self.session.execute(
            select(ChannelRow.workspace, func.min(ChannelRow.external_id), spoke.c.user_id)
            .join(ChannelRow, ChannelRow.id == spoke.c.channel_id)
            .where(
                and_(ChannelRow.platform == platform, spoke.c.user_id != ""),
                ~fresh(kind=PERSON, key=spoke.c.user_id),
            )
            .group_by(ChannelRow.workspace, spoke.c.user_id)
            .order_by(ChannelRow.workspace, spoke.c.user_id)
            .limit(limit - len(wanted))
        ).all()
        return wanted + [
            NameWanted(
                channel=ChannelKey(platform=platform, workspace=ws, channel=cid),
                kind=PERSON,
                external_id=user,
            )
            for ws, cid, user in people
        ]
