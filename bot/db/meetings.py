"""ports.MeetingsStore's meetings over SQL: each channel's recurring meeting, its changes
(skipped and moved dates, one-off sessions), and which channels have one."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime, time, timedelta

from sqlalchemy import delete, select

from bot.db.convert import stored_utc
from bot.db.engine import upsert_insert
from bot.db.meeting_sessions import meeting_or
from bot.db.schema_meetings import MeetingChangeRow, MeetingRow, SessionRow
from bot.db.unit import UnitBound
from bot.db.watches import channel_id_of, channel_id_query, watched_channel_id
from bot.domain import ChannelKey
from bot.meetings.meeting import Meeting, Move, OneOff, Skip
from bot.meetings.reminders import Before
from bot.ports.meetings import MeetingPlan


def wall_time(*, at: time) -> str:
    """A wall time as stored, "HH:MM"; ValueError for one with seconds, which a meeting's
    times never have and the column cannot keep."""
    if at.second or at.microsecond:
        raise ValueError(f"a meeting's times are whole minutes, not {at.isoformat()}")
    return at.strftime("%H:%M")


def whole_minutes(*, length: timedelta) -> int:
    """A length as stored, in minutes; ValueError for one that is not whole minutes."""
    minutes, rest = divmod(length, timedelta(minutes=1))
    if rest:
        raise ValueError(f"a meeting's lengths are whole minutes, not {length}")
    return int(minutes)


def _meeting(*, row: MeetingRow) -> Meeting:
    """Domain meeting from a row."""
    return Meeting(
        weekday=int(row.weekday),
        start=time.fromisoformat(row.start_time),
        zone=row.zone,
        first_date=row.first_date,
        duration=timedelta(minutes=int(row.duration_minutes)),
        every_weeks=int(row.every_weeks),
        place=row.place,
        until=row.until,
    )


def _change(*, row: MeetingChangeRow) -> Skip | Move | OneOff:
    """Domain change from a row."""
    if row.kind == "skip":
        return Skip(day=row.day)
    assert row.to_time is not None  # a move and a one-off have a time (_change_values)
    at = time.fromisoformat(row.to_time)
    if row.kind == "move":
        assert row.to_day is not None
        return Move(day=row.day, to_day=row.to_day, to_time=at, place=row.place)
    minutes = row.duration_minutes
    return OneOff(
        day=row.day,
        at=at,
        duration=timedelta(minutes=int(minutes)) if minutes is not None else None,
        place=row.place,
    )


def _change_values(*, change: Skip | Move | OneOff) -> dict[str, object]:
    """A change's columns, every one set (an upsert replaces an earlier change whole)."""
    if isinstance(change, Skip):
        kind, to_day, to_time, minutes, place = "skip", None, None, None, None
    elif isinstance(change, Move):
        kind, to_day, place = "move", change.to_day, change.place
        to_time, minutes = wall_time(at=change.to_time), None
    else:
        kind, to_day, place = "once", None, change.place
        to_time = wall_time(at=change.at)
        minutes = whole_minutes(length=change.duration) if change.duration is not None else None
    return {
        "kind": kind,
        "to_day": to_day,
        "to_time": to_time,
        "duration_minutes": minutes,
        "place": place,
    }


class SqlMeetings(UnitBound):
    """ports.MeetingsStore: meetings and their changes."""

    def meeting_plan(self, *, channel: ChannelKey) -> MeetingPlan | None:
        """The channel's meeting, its reminders and changes (each kind by date)."""
        row = self.session.scalar(
            select(MeetingRow)
            .where(MeetingRow.channel_id.in_(channel_id_query(channel=channel)))
            .execution_options(populate_existing=True)  # saved by a Core upsert meanwhile
        )
        if row is None:
            return None
        changes = [
            _change(row=change)
            for change in self.session.scalars(
                select(MeetingChangeRow)
                .where(MeetingChangeRow.channel_id == row.channel_id)
                .order_by(MeetingChangeRow.day, MeetingChangeRow.id)
                .execution_options(populate_existing=True)
            )
        ]
        return MeetingPlan(
            channel=channel,
            meeting=_meeting(row=row),
            reminders=tuple(Before(days=days, minutes=minutes) for days, minutes in row.reminders),
            changes=tuple(change for change in changes if not isinstance(change, OneOff)),
            one_offs=tuple(change for change in changes if isinstance(change, OneOff)),
        )

    def save_meeting(
        self, *, channel: ChannelKey, meeting: Meeting, reminders: Sequence[Before], now: datetime
    ) -> None:
        """Upsert the channel's meeting (its row made, watch_only, when missing); its changes
        stay."""
        channel_id = watched_channel_id(session=self.session, channel=channel)
        values = {
            "weekday": meeting.weekday,
            "start_time": wall_time(at=meeting.start),
            "zone": meeting.zone,
            "duration_minutes": whole_minutes(length=meeting.duration),
            "every_weeks": meeting.every_weeks,
            "first_date": meeting.first_date,
            "until": meeting.until,
            "place": meeting.place,
            "reminders": [[before.days, before.minutes] for before in reminders],
            "updated_at": stored_utc(value=now),
        }
        insert = upsert_insert(session=self.session, table=MeetingRow.__table__)  # type: ignore[arg-type]
        self.session.execute(
            insert.values(channel_id=channel_id, **values).on_conflict_do_update(
                index_elements=["channel_id"], set_=values
            )
        )

    def drop_meeting(self, *, channel: ChannelKey) -> bool:
        """Delete the channel's meeting and its changes; its sessions stay, for the service to
        cancel (meeting_channels still names the channel while one is to come)."""
        channel_id = channel_id_of(session=self.session, channel=channel)
        if channel_id is None:
            return False
        self.session.execute(
            delete(MeetingChangeRow).where(MeetingChangeRow.channel_id == channel_id)
        )
        dropped = self.session.execute(
            delete(MeetingRow).where(MeetingRow.channel_id == channel_id)
        )
        return bool(getattr(dropped, "rowcount", 0))

    def add_change(self, *, channel: ChannelKey, change: Skip | Move | OneOff) -> None:
        """Upsert the change on (channel, one_off, day): a skip and a move of one series date
        replace each other, a one-off replaces the one-off of its date."""
        channel_id = watched_channel_id(session=self.session, channel=channel)
        values = _change_values(change=change)
        insert = upsert_insert(session=self.session, table=MeetingChangeRow.__table__)  # type: ignore[arg-type]
        self.session.execute(
            insert.values(
                channel_id=channel_id,
                day=change.day,
                one_off=isinstance(change, OneOff),
                **values,
            ).on_conflict_do_update(index_elements=["channel_id", "one_off", "day"], set_=values)
        )

    def drop_change(self, *, channel: ChannelKey, day: date, one_off: bool) -> bool:
        """Delete the date's change of that kind; whether there was one."""
        dropped = self.session.execute(
            delete(MeetingChangeRow).where(
                MeetingChangeRow.channel_id.in_(channel_id_query(channel=channel)),
                MeetingChangeRow.one_off == one_off,
                MeetingChangeRow.day == day,
            )
        )
        return bool(getattr(dropped, "rowcount", 0))

    def meeting_channels(self, *, platform: str, now: datetime) -> list[ChannelKey]:
        """The platform's channels with a meeting, or with a session not cancelled starting
        after `now` (their meeting turned off: the service cancels those), by row id."""
        to_cancel = select(SessionRow.channel_id).where(
            SessionRow.cancelled.is_(False), SessionRow.start_at > stored_utc(value=now)
        )
        return meeting_or(session=self.session, platform=platform, also=to_cancel)
