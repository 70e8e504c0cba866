"""Rows to domain objects; SQLite hands back naive datetimes, everything stored is UTC."""

from __future__ import annotations

from datetime import UTC, datetime, time

from bot.db.schema import ChannelRow, PaperRow, PostRow
from bot.domain import (
    Channel,
    ChannelKey,
    Paper,
    PaperStatus,
    PickOrder,
    Post,
    PostState,
    Schedule,
    WeeklyRecap,
)
from bot.schedule_text import days_to_text, parse_days


def utc(*, value: datetime) -> datetime:
    """A stored datetime as an aware UTC one."""
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def to_paper(*, row: PaperRow) -> Paper:
    """Domain paper from a row."""
    return Paper(
        id=row.id,
        title=row.title,
        abstract=row.abstract,
        authors=tuple(row.authors or ()),
        url=row.url,
        arxiv_id=row.arxiv_id,
        doi=row.doi,
        source=row.source,
        added_by=row.added_by,
        added_at=utc(value=row.added_at),
        position=row.position,
        status=PaperStatus(row.status),
        queue_channel_id=row.queue_channel_id,
        title_derived=bool(row.title_derived),
        list_id=row.list_id,
    )


def channel_key(*, row: ChannelRow) -> ChannelKey:
    """A channel row's key."""
    return ChannelKey(platform=row.platform, workspace=row.workspace, channel=row.external_id)


def to_channel(*, row: ChannelRow) -> Channel:
    """Domain channel from a row."""
    hours, minutes = (int(part) for part in row.post_time.split(":"))
    return Channel(
        id=row.id,
        key=channel_key(row=row),
        schedule=Schedule(
            post_time=time(hours, minutes),
            timezone=row.timezone,
            weekdays=parse_days(text=row.weekdays),
        ),
        paused=row.paused,
        private=row.private,
        empty_notice_sent=row.empty_notice_sent,
        pick_order=PickOrder(row.pick_order),
        recap=(
            WeeklyRecap(weekday=row.recap_day, at=time.fromisoformat(row.recap_time))
            if row.recap_day and row.recap_time
            else None
        ),
    )


def schedule_values(*, schedule: Schedule) -> dict[str, str]:
    """A schedule as a channel row's columns (to_channel reads them back)."""
    return {
        "post_time": schedule.post_time.strftime("%H:%M"),
        "timezone": schedule.timezone,
        "weekdays": days_to_text(days=schedule.weekdays),
    }


def to_post(*, row: PostRow, channel: ChannelKey) -> Post:
    """Domain post from a row and its channel's key."""
    return Post(
        id=row.id,
        paper_id=row.paper_id,
        channel=channel,
        local_date=row.local_date,
        state=PostState(row.state),
        message_id=row.message_id,
        permalink=row.permalink,
        claimed_by=row.claimed_by,
        claimed_at=utc(value=row.claimed_at) if row.claimed_at else None,
        channel_id=row.channel_id,
    )


def stored_utc(*, value: datetime) -> datetime:
    """An aware datetime as the UTC one to store: SQLite keeps a datetime's wall time and
    drops its zone, so a value in another zone would be read back hours off."""
    return value.astimezone(UTC)
