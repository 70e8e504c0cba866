"""ports.ReconcileStore over SQL, the runs' side: one row per channel in `reconciliations`,
asked for, claimed with one conditional UPDATE (so two replicas never run a channel at once),
renewed, finished, and shown to admins (the posts' side: bot/db/reconcile_posts.py)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import ColumnElement, and_, false, or_, select, update

from bot.db.convert import channel_key, utc
from bot.db.engine import upsert_insert
from bot.db.schema import ChannelRow
from bot.db.schema_upkeep import ReconcileRow
from bot.db.unit import UnitBound
from bot.domain import ChannelKey
from bot.ports.reconcile import (
    DEFAULT_WINDOW_DAYS,
    ReconcileRun,
    ReconcileStatus,
)


def _unfinished() -> ColumnElement[bool]:
    """A run that began and has not ended (its process stopped, or it is under way)."""
    return and_(
        ReconcileRow.started_at.is_not(None),
        or_(ReconcileRow.finished_at.is_(None), ReconcileRow.finished_at < ReconcileRow.started_at),
    )


def _asked_since_run() -> ColumnElement[bool]:
    """A run asked for after the last one began."""
    return and_(
        ReconcileRow.wanted_at.is_not(None),
        or_(ReconcileRow.started_at.is_(None), ReconcileRow.wanted_at > ReconcileRow.started_at),
    )


class SqlReconcile(UnitBound):
    """ports.ReconcileStore."""

    def _channel_ids(self, *, platform: str) -> list[int]:
        """The ids of a platform's followed channels."""
        query = select(ChannelRow.id).where(ChannelRow.platform == platform)
        return [int(i) for i in self.session.scalars(query)]

    def want_reconcile(self, *, platform: str, since: datetime) -> int:
        """Ask for each channel of the platform, creating its row on first ask."""
        ids = self._channel_ids(platform=platform)
        if not ids:
            return 0
        insert = upsert_insert(session=self.session, table=ReconcileRow.__table__)  # type: ignore[arg-type]
        rows = [{"channel_id": i, "window_days": DEFAULT_WINDOW_DAYS} for i in ids]
        self.session.execute(insert.values(rows).on_conflict_do_nothing())
        self.session.execute(
            update(ReconcileRow)
            .where(
                ReconcileRow.channel_id.in_(ids),
                or_(ReconcileRow.wanted_at.is_(None), ReconcileRow.wanted_at < since),
            )
            .values(wanted_at=since)
        )
        return len(ids)

    def want_channel_reconciled(self, *, channel: ChannelKey, since: datetime) -> None:
        """The channel's row, created on first ask, asked since `since`."""
        channel_id = self._channel_id(channel=channel)
        if channel_id is None:
            return
        insert = upsert_insert(session=self.session, table=ReconcileRow.__table__)  # type: ignore[arg-type]
        self.session.execute(
            insert.values(
                channel_id=channel_id, window_days=DEFAULT_WINDOW_DAYS
            ).on_conflict_do_nothing()
        )
        self.session.execute(
            update(ReconcileRow)
            .where(
                ReconcileRow.channel_id == channel_id,
                or_(ReconcileRow.wanted_at.is_(None), ReconcileRow.wanted_at < since),
            )
            .values(wanted_at=since)
        )

    def _channel_id(self, *, channel: ChannelKey) -> int | None:
        """A followed channel's row id."""
        return self.session.scalar(
            select(ChannelRow.id).where(
                ChannelRow.platform == channel.platform,
                ChannelRow.workspace == channel.workspace,
                ChannelRow.external_id == channel.channel,
            )
        )

    def reconcile_due(self, *, platform: str) -> list[int]:
        """Channels asked for since their last run began, or whose run did not finish."""
        query = (
            select(ReconcileRow.channel_id)
            .join(ChannelRow, ChannelRow.id == ReconcileRow.channel_id)
            .where(ChannelRow.platform == platform, or_(_asked_since_run(), _unfinished()))
            .order_by(ReconcileRow.channel_id)
        )
        return [int(i) for i in self.session.scalars(query)]

    def reconcile_holder(self, *, channel_id: int) -> str | None:
        """Who holds the claim."""
        return self.session.scalar(
            select(ReconcileRow.claimed_by).where(ReconcileRow.channel_id == channel_id)
        )

    def claim_reconcile(
        self, *, channel_id: int, owner: str, now: datetime, stale_before: datetime
    ) -> ReconcileRun | None:
        """One conditional UPDATE takes the claim; a run asked for anew starts afresh (its
        counts from zero), an unfinished one goes on with its counts."""
        free = or_(
            ReconcileRow.claimed_by.is_(None),
            ReconcileRow.claimed_by == owner,
            ReconcileRow.claimed_at < stale_before,
        )
        taken = self.session.execute(
            update(ReconcileRow)
            .where(ReconcileRow.channel_id == channel_id, free)
            .where(or_(_asked_since_run(), _unfinished()))
            .values(claimed_by=owner, claimed_at=now)
        )
        if not getattr(taken, "rowcount", 0):
            return None
        row, channel = self.session.execute(
            select(ReconcileRow, ChannelRow)
            .join(ChannelRow, ChannelRow.id == ReconcileRow.channel_id)
            .where(ReconcileRow.channel_id == channel_id)
        ).one()
        fresh = row.started_at is None or (
            row.wanted_at is not None and utc(value=row.wanted_at) > utc(value=row.started_at)
        )
        if fresh:
            row.started_at, row.changes, row.failures = now, 0, 0
        return ReconcileRun(
            channel=channel_key(row=channel),
            channel_id=channel_id,
            window_days=int(row.window_days),
            wanted_at=utc(value=row.wanted_at or row.started_at or now),
            started_at=utc(value=row.started_at or now),
        )

    def reconcile_progress(
        self, *, channel_id: int, owner: str, changes: int, failures: int, now: datetime
    ) -> bool:
        """Add to the run's counts and renew the claim, if still the owner's."""
        result = self.session.execute(
            update(ReconcileRow)
            .where(ReconcileRow.channel_id == channel_id, ReconcileRow.claimed_by == owner)
            .values(
                changes=ReconcileRow.changes + changes,
                failures=ReconcileRow.failures + failures,
                claimed_at=now,
            )
        )
        return bool(getattr(result, "rowcount", 0))

    def finish_reconcile(self, *, channel_id: int, owner: str, now: datetime) -> None:
        """Done, and free."""
        self.session.execute(
            update(ReconcileRow)
            .where(ReconcileRow.channel_id == channel_id, ReconcileRow.claimed_by == owner)
            .values(finished_at=now, claimed_by=None, claimed_at=None)
        )

    def reconcile_status(self, *, channels: Sequence[ChannelKey] | None) -> list[ReconcileStatus]:
        """Every followed channel (of `channels`), with the defaults where none ran yet."""
        query = select(ChannelRow, ReconcileRow).outerjoin(
            ReconcileRow, ReconcileRow.channel_id == ChannelRow.id
        )
        if channels is not None:  # those rows alone (the Home asks per channel it shows)
            query = query.where(
                or_(
                    false(),
                    *(
                        and_(
                            ChannelRow.platform == key.platform,
                            ChannelRow.workspace == key.workspace,
                            ChannelRow.external_id == key.channel,
                        )
                        for key in channels
                    ),
                )
            )
        return [
            _status(key=channel_key(row=channel), row=row)
            for channel, row in self.session.execute(query.order_by(ChannelRow.id))
        ]

    def set_reconcile_window(self, *, channel: ChannelKey, days: int) -> None:
        """Upsert the channel's window."""
        channel_id = self._channel_id(channel=channel)
        if channel_id is None:
            return
        insert = upsert_insert(session=self.session, table=ReconcileRow.__table__)  # type: ignore[arg-type]
        self.session.execute(
            insert.values(channel_id=channel_id, window_days=days).on_conflict_do_update(
                index_elements=["channel_id"], set_={"window_days": days}
            )
        )


def _status(*, key: ChannelKey, row: ReconcileRow | None) -> ReconcileStatus:
    """A channel's status from its row (None: never asked)."""
    if row is None:
        return ReconcileStatus(
            channel=key,
            window_days=DEFAULT_WINDOW_DAYS,
            wanted_at=None,
            started_at=None,
            finished_at=None,
            running=False,
            changes=0,
            failures=0,
        )

    def aware(value: datetime | None) -> datetime | None:
        return utc(value=value) if value is not None else None

    started, finished = aware(row.started_at), aware(row.finished_at)
    return ReconcileStatus(
        channel=key,
        window_days=int(row.window_days),
        wanted_at=aware(row.wanted_at),
        started_at=started,
        finished_at=finished,
        running=row.claimed_by is not None and started is not None,
        changes=int(row.changes),
        failures=int(row.failures),
    )
