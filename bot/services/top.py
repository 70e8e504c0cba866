"""`/paperclub top [week|month|year|all]`: the most voted and most discussed posts."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Protocol
from zoneinfo import ZoneInfo

from bot.domain import ChannelKey
from bot.ports import ChannelsStore, PostsStore, UnitOfWork
from bot.services.reply import Reply
from bot.wording import archive, replies


class Needs(ChannelsStore, PostsStore, Protocol):
    """The roles of the archive this service uses: a unit of work handing out more is fine."""


PERIODS = {"week": 7, "month": 30, "year": 365, "all": None}


def top(
    *, uow: UnitOfWork[Needs], channel: ChannelKey, period: str, now: datetime, tz: str
) -> Reply:
    """Rank the channel's posts of the period by votes, and by discussion."""
    if period not in PERIODS:
        return Reply(message=replies.TOP_USAGE)
    days = PERIODS[period]
    today = now.astimezone(ZoneInfo(tz)).date()
    since: date | None = today - timedelta(days=days) if days else None
    with uow(write=False) as store:
        followed = store.channel(key=channel)
        entries = store.top_posts(channel=followed, since=since, limit=50) if followed else []
    if not entries:
        return Reply(message=archive.no_top(period=period, bounded=days is not None))
    voted = entries[:5]
    talked = [e for e in sorted(entries, key=lambda e: (-e.comments, e.date)) if e.comments][:5]
    span = f"the last {period}" if days else "all time"
    return Reply(message=archive.top(voted=voted, talked=talked, span=span))
