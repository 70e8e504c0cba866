"""ports.MeetingsStore's sessions over SQL: each session made of a channel's meeting, kept for
ever under its key (one_off, day), its sequence bumped on every change, and its platform event
noted with the sequence it shows."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Select, or_, select, update
from sqlalchemy.orm import Session as OrmSession

from bot.db.convert import channel_key, stored_utc, utc
from bot.db.engine import upsert_insert
from bot.db.schema import ChannelRow
from bot.db.schema_meetings import MeetingRow, SessionRow
from bot.db.unit import UnitBound
from bot.db.watches import channel_id_of, watched_channel_id
from bot.domain import ChannelKey
from bot.meetings.meeting import Session
from bot.ports.meetings import SessionRecord


def to_session_record(*, row: SessionRow, channel: ChannelKey) -> SessionRecord:
    """Domain session record from a row and its channel's key (instants read back aware)."""
    return SessionRecord(
        id=row.id,
        channel=channel,
        session=Session(
            day=row.day,
            start=utc(value=row.start_at),
            end=utc(value=row.end_at),
            zone=row.zone,
            place=row.place,
            moved=bool(row.moved),
            one_off=bool(row.one_off),
        ),
        cancelled=bool(row.cancelled),
        sequence=int(row.sequence),
        modified_at=utc(value=row.modified_at),
        platform_event=row.platform_event_id,
        platform_event_sequence=(
            None if row.platform_event_sequence is None else int(row.platform_event_sequence)
        ),
    )


def _when(*, session: Session) -> dict[str, object]:
    """A session's time, place and shape as columns (its key is not among them)."""
    return {
        "start_at": stored_utc(value=session.start),
        "end_at": stored_utc(value=session.end),
        "zone": session.zone,
        "place": session.place,
        "moved": session.moved,
    }


class SqlSessions(UnitBound):
    """ports.MeetingsStore: sessions."""

    def session_records(
        self, *, channel: ChannelKey, since: datetime, until: datetime
    ) -> list[SessionRecord]:
        """The channel's sessions starting in [since, until), cancelled ones too, earliest
        first (by id among equals)."""
        channel_id = channel_id_of(session=self.session, channel=channel)
        if channel_id is None:
            return []
        rows = self.session.scalars(
            select(SessionRow)
            .where(
                SessionRow.channel_id == channel_id,
                SessionRow.start_at >= stored_utc(value=since),
                SessionRow.start_at < stored_utc(value=until),
            )
            .order_by(SessionRow.start_at, SessionRow.id)
            .execution_options(populate_existing=True)  # changed by an UPDATE meanwhile
        )
        return [to_session_record(row=row, channel=channel) for row in rows]

    def session_record(self, *, session_id: int) -> SessionRecord | None:
        """A session by its number, with its channel."""
        found = self.session.execute(
            select(SessionRow, ChannelRow)
            .join(ChannelRow, ChannelRow.id == SessionRow.channel_id)
            .where(SessionRow.id == session_id)
            .execution_options(populate_existing=True)
        ).first()
        if found is None:
            return None
        row, owner = found
        return to_session_record(row=row, channel=channel_key(row=owner))

    def add_session(self, *, channel: ChannelKey, session: Session, now: datetime) -> int | None:
        """INSERT ... ON CONFLICT DO NOTHING on the channel and the session's key: None when
        another sweep or replica made it first. Its channel row is made (watch_only) when
        missing, as a meeting's is."""
        channel_id = watched_channel_id(session=self.session, channel=channel)
        insert = upsert_insert(session=self.session, table=SessionRow.__table__)  # type: ignore[arg-type]
        made = self.session.execute(
            insert.values(
                channel_id=channel_id,
                day=session.day,
                one_off=session.one_off,
                cancelled=False,
                sequence=0,
                modified_at=stored_utc(value=now),
                **_when(session=session),
            )
            .on_conflict_do_nothing(index_elements=["channel_id", "one_off", "day"])
            .returning(SessionRow.__table__.c.id)
        ).scalar_one_or_none()
        return int(made) if made is not None else None

    def change_session(
        self, *, session_id: int, session: Session, cancelled: bool, now: datetime
    ) -> None:
        """Set the session's time, place, moved and cancelled, its sequence bumped by one in
        the same UPDATE (two changers at once bump it twice). Its key stays: `session.day`
        and `session.one_off` are not read."""
        self.session.execute(
            update(SessionRow)
            .where(SessionRow.id == session_id)
            .values(
                cancelled=cancelled,
                sequence=SessionRow.sequence + 1,
                modified_at=stored_utc(value=now),
                **_when(session=session),
            )
        )

    def platform_event_channels(self, *, platform: str, now: datetime) -> list[ChannelKey]:
        """The platform's channels with a meeting, or with a session starting after `now`
        whose event is behind its sequence, by row id."""
        lagging = select(SessionRow.channel_id).where(
            SessionRow.start_at > stored_utc(value=now),
            SessionRow.platform_event_id.is_not(None),
            SessionRow.platform_event_sequence < SessionRow.sequence,
        )
        return meeting_or(session=self.session, platform=platform, also=lagging)

    def note_platform_event(self, *, session_id: int, event_id: str | None, sequence: int) -> None:
        """Set the session's event id and the sequence it shows."""
        self.session.execute(
            update(SessionRow)
            .where(SessionRow.id == session_id)
            .values(platform_event_id=event_id, platform_event_sequence=sequence)
        )


def meeting_or(*, session: OrmSession, platform: str, also: Select[int]) -> list[ChannelKey]:
    """The platform's channels with a meeting, or among the channel ids `also` selects, by
    row id."""
    rows = session.scalars(
        select(ChannelRow)
        .where(
            ChannelRow.platform == platform,
            or_(ChannelRow.id.in_(select(MeetingRow.channel_id)), ChannelRow.id.in_(also)),
        )
        .order_by(ChannelRow.id)
    )
    return [channel_key(row=row) for row in rows]
