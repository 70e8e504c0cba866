"""A channel's calendar feed (iCalendar, RFC 5545) from its stored sessions: the last
PAST_DAYS and everything made ahead, cancelled ones as CANCELLED, each with the UID and
SEQUENCE its row keeps, so a subscribed calendar updates in place."""

from __future__ import annotations

from datetime import datetime, timedelta

from bot.domain import ChannelKey
from bot.meetings.ics import CANCELLED, CONFIRMED, SessionEvent, calendar, session_uid
from bot.ports import UnitOfWork
from bot.ports.meetings import SessionRecord
from bot.services.meeting_sessions import HORIZON, Needs, bring_up_to_date

# How far back the feed lists sessions (a calendar keeps what it read before).
PAST_DAYS = 90
SUMMARY = "Reading group"


def _event(*, channel: ChannelKey, record: SessionRecord) -> SessionEvent:
    """A stored session as the feed carries it: a link place as the URL, else the location."""
    session = record.session
    link = session.place if session.place.startswith(("https://", "http://")) else ""
    return SessionEvent(
        uid=session_uid(channel_key=str(channel), day=session.day, one_off=session.one_off),
        sequence=record.sequence,
        start=session.start,
        end=session.end,
        summary=SUMMARY,
        modified=record.modified_at,
        location="" if link else session.place,
        url=link,
        status=CANCELLED if record.cancelled else CONFIRMED,
    )


def feed(*, uow: UnitOfWork[Needs], channel: ChannelKey, name: str, now: datetime) -> bytes:
    """The channel's feed now (its sessions brought up to date first), called `name`."""
    bring_up_to_date(uow=uow, channel=channel, now=now)
    with uow(write=False) as store:
        records = store.session_records(
            channel=channel, since=now - timedelta(days=PAST_DAYS), until=now + HORIZON
        )
    events = [_event(channel=channel, record=r) for r in records]
    return calendar(name=name, events=events, stamp=now)
