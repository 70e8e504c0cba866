"""ports.PresentersStore's rotation part over SQL: the members of a channel's rotation, kept
when they leave so that coming back keeps their first opt-in (and so their place)."""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import func, select, update

from bot.db.convert import stored_utc, utc
from bot.db.engine import upsert_insert
from bot.db.schema_presenters import RotationMemberRow
from bot.db.unit import UnitBound
from bot.db.watches import channel_id_query, watched_channel_id
from bot.domain import ChannelKey
from bot.ports.presenters import RotationMember


class SqlRotation(UnitBound):
    """ports.PresentersStore: a channel's rotation."""

    def rotation(self, *, channel: ChannelKey) -> list[RotationMember]:
        """The members in (left_at NULL) by opted_in_at, then id: of two opting in at one
        instant, the first row made comes first."""
        rows = self.session.execute(
            select(
                RotationMemberRow.user_id,
                RotationMemberRow.opted_in_at,
                RotationMemberRow.away_until,
            )
            .where(
                RotationMemberRow.channel_id.in_(channel_id_query(channel=channel)),
                RotationMemberRow.left_at.is_(None),
            )
            .order_by(RotationMemberRow.opted_in_at, RotationMemberRow.id)
        )
        return [
            RotationMember(user=user, opted_in_at=utc(value=opted_in_at), away_until=away_until)
            for user, opted_in_at, away_until in rows
        ]

    def join_rotation(self, *, channel: ChannelKey, user: str, now: datetime) -> bool:
        """INSERT ... ON CONFLICT DO NOTHING on (channel, user), else clear left_at where set:
        each a single statement, so of two joining at once one says they were out. The
        channel row is made (watch_only) when missing, as a meeting's is."""
        channel_id = watched_channel_id(session=self.session, channel=channel)
        insert = upsert_insert(session=self.session, table=RotationMemberRow.__table__)  # type: ignore[arg-type]
        made = self.session.execute(
            insert.values(channel_id=channel_id, user_id=user, opted_in_at=stored_utc(value=now))
            .on_conflict_do_nothing(index_elements=["channel_id", "user_id"])
            .returning(RotationMemberRow.__table__.c.id)
        ).scalar_one_or_none()
        if made is not None:
            return True
        back = self.session.execute(
            update(RotationMemberRow)
            .where(
                RotationMemberRow.channel_id == channel_id,
                RotationMemberRow.user_id == user,
                RotationMemberRow.left_at.is_not(None),
            )
            .values(left_at=None)
        )
        return bool(getattr(back, "rowcount", 0))

    def leave_rotation(self, *, channel: ChannelKey, user: str) -> bool:
        """Set left_at (the database's clock) where not set yet."""
        left = self.session.execute(
            update(RotationMemberRow)
            .where(
                RotationMemberRow.channel_id.in_(channel_id_query(channel=channel)),
                RotationMemberRow.user_id == user,
                RotationMemberRow.left_at.is_(None),
            )
            .values(left_at=func.now())
        )
        return bool(getattr(left, "rowcount", 0))

    def set_away(self, *, channel: ChannelKey, user: str, until: date | None) -> bool:
        """Set away_until for a member who is in; a member who left is left alone."""
        found = self.session.execute(
            update(RotationMemberRow)
            .where(
                RotationMemberRow.channel_id.in_(channel_id_query(channel=channel)),
                RotationMemberRow.user_id == user,
                RotationMemberRow.left_at.is_(None),
            )
            .values(away_until=until)
        )
        return bool(getattr(found, "rowcount", 0))
