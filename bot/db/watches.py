"""ports.SourcesStore's watches over SQL: what each channel watches and how far each watch was
read; and the channel row a watch (or a tray setting) needs, made when the channel does not
follow the list yet."""

from __future__ import annotations

from datetime import datetime
from typing import get_args

from sqlalchemy import Select, select, update
from sqlalchemy.orm import Session

from bot.config.settings import Settings
from bot.db.convert import channel_key, schedule_values, utc
from bot.db.engine import upsert_insert
from bot.db.schema import ChannelRow
from bot.db.schema_sources import SourceStateRow, WatchRow
from bot.db.unit import UnitBound
from bot.db.workspaces import ensure_workspace
from bot.domain import ChannelKey, Schedule
from bot.ports.sources import SourceState, Watch, WatchKind, WatchSpec

_KINDS: dict[str, WatchKind] = {kind: kind for kind in get_args(WatchKind)}


def channel_id_query(*, channel: ChannelKey) -> Select[int]:
    """The query for a channel's row id."""
    return select(ChannelRow.id).where(
        ChannelRow.platform == channel.platform,
        ChannelRow.workspace == channel.workspace,
        ChannelRow.external_id == channel.channel,
    )


def channel_id_of(*, session: Session, channel: ChannelKey) -> int | None:
    """A channel's row id (None: no row, so no watch, suggestion or tray of its own)."""
    found = session.scalar(channel_id_query(channel=channel))
    return int(found) if found is not None else None


def watched_channel_id(*, session: Session, channel: ChannelKey) -> int:
    """A channel's row id, its row made when missing the way a follow makes it (workspace
    claimed, ON CONFLICT DO NOTHING for a replica doing the same) but paused and watch_only:
    watching is not following, so the scheduler never posts there until a follow (a schedule
    set, the configured channel, a resume) says so. Its schedule is the settings' built-in
    default (the configured one is the services', not known here), shown when it is followed."""
    found = channel_id_of(session=session, channel=channel)
    if found is not None:
        return found
    ensure_workspace(session=session, workspace=channel.workspace_key, claim=True)
    defaults = Settings()
    session.execute(
        upsert_insert(session=session, table=ChannelRow.__table__)  # type: ignore[arg-type]
        .values(
            platform=channel.platform,
            workspace=channel.workspace,
            external_id=channel.channel,
            paused=True,
            watch_only=True,
            empty_notice_sent=False,
            # Private until a follow says otherwise: if it is resumed before anyone says,
            # what is said there is found there alone.
            private=True,
            **schedule_values(
                schedule=Schedule(
                    post_time=defaults.post_time, timezone=defaults.timezone, weekdays=defaults.days
                )
            ),
        )
        .on_conflict_do_nothing(index_elements=["platform", "workspace", "external_id"])
    )
    made = channel_id_of(session=session, channel=channel)
    assert made is not None  # inserted now, or by the replica that was first
    return made


def _to_watch(*, row: WatchRow, channel: ChannelKey) -> Watch:
    """Domain watch from a row and its channel's key."""
    return Watch(
        id=row.id,
        channel=channel,
        spec=WatchSpec(
            kind=_KINDS[row.kind],
            target=row.target,
            keywords=tuple(row.keywords or ()),
            authors=tuple(row.authors or ()),
        ),
        added_by=row.added_by,
        added_at=utc(value=row.added_at),
    )


def _aware(value: datetime | None) -> datetime | None:
    """A stored datetime as aware UTC, None kept."""
    return utc(value=value) if value is not None else None


class SqlWatches(UnitBound):
    """ports.SourcesStore: watches and their read state."""

    def add_watch(self, *, channel: ChannelKey, spec: WatchSpec, user: str, now: datetime) -> int:
        """The channel's live watch of this very spec, else a new one. The channel row is
        locked first (FOR UPDATE, PostgreSQL; SQLite's writers take turns anyway), so two
        admins adding the same watch at once make one."""
        channel_id = watched_channel_id(session=self.session, channel=channel)
        self.session.execute(
            select(ChannelRow.id).where(ChannelRow.id == channel_id).with_for_update()
        )
        same = self.session.scalars(
            select(WatchRow)
            .where(
                WatchRow.channel_id == channel_id,
                WatchRow.removed_at.is_(None),
                WatchRow.kind == spec.kind,
                WatchRow.target == spec.target,
            )
            .order_by(WatchRow.id)
        )
        for row in same:
            if (
                tuple(row.keywords or ()) == spec.keywords
                and tuple(row.authors or ()) == spec.authors
            ):
                return row.id
        row = WatchRow(
            channel_id=channel_id,
            kind=spec.kind,
            target=spec.target,
            keywords=list(spec.keywords),
            authors=list(spec.authors),
            added_by=user,
            added_at=now,
        )
        self.session.add(row)
        self.session.flush()
        return row.id

    def remove_watch(self, *, channel: ChannelKey, watch_id: int, now: datetime) -> Watch | None:
        """Mark the channel's live watch removed (one conditional UPDATE: a second removal, or
        another channel's watch id, changes nothing)."""
        channel_id = channel_id_of(session=self.session, channel=channel)
        if channel_id is None:
            return None
        row = self.session.scalar(
            select(WatchRow).where(
                WatchRow.id == watch_id,
                WatchRow.channel_id == channel_id,
                WatchRow.removed_at.is_(None),
            )
        )
        if row is None:
            return None
        watch = _to_watch(row=row, channel=channel)
        removed = self.session.execute(
            update(WatchRow)
            .where(WatchRow.id == watch_id, WatchRow.removed_at.is_(None))
            .values(removed_at=now)
        )
        return watch if getattr(removed, "rowcount", 0) else None

    def watches(self, *, channel: ChannelKey | None) -> list[Watch]:
        """Live watches with their channels, by id."""
        query = (
            select(WatchRow, ChannelRow)
            .join(ChannelRow, ChannelRow.id == WatchRow.channel_id)
            .where(WatchRow.removed_at.is_(None))
            .order_by(WatchRow.id)
        )
        if channel is not None:
            query = query.where(WatchRow.channel_id.in_(channel_id_query(channel=channel)))
        return [
            _to_watch(row=row, channel=channel_key(row=owner))
            for row, owner in self.session.execute(query)
        ]

    def channels_watching(self, *, platform: str) -> list[ChannelKey]:
        """The platform's channels with a live watch, by row id."""
        live = select(WatchRow.channel_id).where(WatchRow.removed_at.is_(None))
        rows = self.session.scalars(
            select(ChannelRow)
            .where(ChannelRow.platform == platform, ChannelRow.id.in_(live))
            .order_by(ChannelRow.id)
        )
        return [channel_key(row=row) for row in rows]

    def source_state(self, *, watch_id: int) -> SourceState:
        """The watch's read state, fresh when never saved."""
        row = self.session.scalar(
            select(SourceStateRow)
            .where(SourceStateRow.watch_id == watch_id)
            .execution_options(populate_existing=True)  # saved by a Core upsert meanwhile
        )
        if row is None:
            return SourceState(watch_id=watch_id)
        return SourceState(
            watch_id=watch_id,
            cycle=row.cycle,
            etag=row.etag,
            last_modified=row.last_modified,
            read_at=_aware(row.read_at),
            failures=int(row.failures),
            retry_at=_aware(row.retry_at),
            failing_since=_aware(row.failing_since),
            last_error=row.last_error,
            reported=bool(row.reported),
        )

    def save_source_state(self, *, state: SourceState) -> None:
        """Upsert the watch's read state, every field replaced."""
        values = {
            "cycle": state.cycle,
            "etag": state.etag,
            "last_modified": state.last_modified,
            "read_at": state.read_at,
            "failures": state.failures,
            "retry_at": state.retry_at,
            "failing_since": state.failing_since,
            "last_error": state.last_error,
            "reported": state.reported,
        }
        insert = upsert_insert(session=self.session, table=SourceStateRow.__table__)  # type: ignore[arg-type]
        self.session.execute(
            insert.values(watch_id=state.watch_id, **values).on_conflict_do_update(
                index_elements=["watch_id"], set_=values
            )
        )
