"""Sessions as the platform's own events (ports.session_events; Discord's scheduled events),
published by the leader's minute sweep after the stored sessions follow the meeting.

Each session's event is noted with the sequence it shows, so a change is published once and a
pass with nothing behind sends nothing. An event is made only for the next EVENTS_AHEAD
sessions held (Discord keeps at most 100 events a server); one made before is kept in step
(moved, or removed when its session is cancelled) wherever its session now falls.

A refusal (a missing permission) is logged once per channel and code, and the channel's events
wait REFUSED_WAIT before they are tried again; reminders never wait for any of it (the sweep
sends them first, and a failure here stays here).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Protocol

from bot.domain import ChannelKey
from bot.ports import ChatError, UnitOfWork
from bot.ports.meetings import MeetingsStore, SessionRecord
from bot.ports.posts import ChannelsStore
from bot.ports.session_events import SessionEvents
from bot.services.meeting_sessions import HORIZON, MOVE_REACH, bring_up_to_date
from bot.wording.meeting_events import session_event

log = logging.getLogger("paperclub")

# How many sessions ahead get an event (a month of a weekly meeting).
EVENTS_AHEAD = 4
# How long a channel's events wait after the platform refused one (not a rate limit).
REFUSED_WAIT = timedelta(hours=1)


class Needs(MeetingsStore, ChannelsStore, Protocol):
    """The roles the events use."""


@dataclass
class Refusals:
    """What the platform refused lately: until when each channel's events wait, and which
    (channel, code) were logged already (forgotten once the channel's events go through)."""

    waiting: dict[ChannelKey, datetime] = field(default_factory=dict)
    told: set[tuple[ChannelKey, str]] = field(default_factory=set)

    def waits(self, *, channel: ChannelKey, now: datetime) -> bool:
        """Whether the channel's events still wait after a refusal."""
        until = self.waiting.get(channel)
        return until is not None and now < until

    def note(self, *, channel: ChannelKey, error: ChatError, now: datetime) -> None:
        """Log a failure the first time it comes; a refusal makes the channel wait."""
        if error.posted_nothing and error.code != "rate_limited":
            self.waiting[channel] = now + REFUSED_WAIT
        if (channel, error.code) not in self.told:
            self.told.add((channel, error.code))
            log.warning("no session events in %s: %s (%s)", channel, error.code, error.hint)

    def cleared(self, *, channel: ChannelKey) -> None:
        """The channel's events went through: a new refusal is worth a new line."""
        self.waiting.pop(channel, None)
        self.told = {told for told in self.told if told[0] != channel}


@dataclass(frozen=True, slots=True)
class EventPublisher:
    """Who publishes a platform's session events: the archive, the platform's port, its name
    and what it refused lately (kept by the sweep across passes)."""

    uow: UnitOfWork[Needs]
    events: SessionEvents
    platform: str
    refusals: Refusals


def _behind(*, record: SessionRecord) -> bool:
    """Whether the session changed since its event was last published (or never was)."""
    return record.platform_event_sequence != record.sequence


def _publish_one(
    *, publisher: EventPublisher, record: SessionRecord, held: bool, private: bool
) -> bool:
    """Bring one session's event in step (make, change or remove it); whether anything was
    sent. ChatError when the platform refused or failed. A private channel's session has no
    event (a guild's events are seen by all its members): one made before is removed."""
    event_id = record.platform_event
    if private:
        if event_id is None:
            return False
        publisher.events.remove_event(channel=record.channel, event_id=event_id)
        with publisher.uow() as store:
            store.note_platform_event(session_id=record.id, event_id=None, sequence=-1)
        return True
    if event_id is not None and not _behind(record=record):
        return False
    if record.cancelled:
        if event_id is None:
            return False  # never shown: nothing to take back
        publisher.events.remove_event(channel=record.channel, event_id=event_id)
        noted: str | None = None
    elif event_id is not None or held:
        noted = publisher.events.publish_event(
            channel=record.channel, event_id=event_id, event=session_event(record=record)
        )
    else:
        return False  # beyond the next few: made when it comes near
    with publisher.uow() as store:
        store.note_platform_event(session_id=record.id, event_id=noted, sequence=record.sequence)
    return True


def publish_channel(*, publisher: EventPublisher, channel: ChannelKey, now: datetime) -> int:
    """Bring the channel's sessions up to date, then their events; how many were sent."""
    bring_up_to_date(uow=publisher.uow, channel=channel, now=now)
    with publisher.uow(write=False) as store:
        records = store.session_records(
            channel=channel, since=now, until=now + HORIZON + MOVE_REACH
        )
        followed = store.channel(key=channel)
    # A channel that does not follow the list is taken as private until a follow says.
    private = followed is None or followed.private
    held = {r.id for r in [r for r in records if not r.cancelled][:EVENTS_AHEAD]}
    return sum(
        _publish_one(publisher=publisher, record=record, held=record.id in held, private=private)
        for record in records
    )


def publish_due(*, publisher: EventPublisher, now: datetime) -> int:
    """Every channel's session events brought in step; how many were sent. A channel the
    platform refused waits; the others go on."""
    with publisher.uow(write=False) as store:
        channels = store.platform_event_channels(platform=publisher.platform, now=now)
    sent = 0
    for channel in channels:
        if publisher.refusals.waits(channel=channel, now=now):
            continue
        try:
            sent += publish_channel(publisher=publisher, channel=channel, now=now)
        except ChatError as error:
            publisher.refusals.note(channel=channel, error=error, now=now)
        else:
            publisher.refusals.cleared(channel=channel)
    return sent
