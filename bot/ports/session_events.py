"""A platform's own calendar object for a session (issue 33): on Discord, a Guild Scheduled
Event made, changed and removed with the session. Slack and the console have none: their Chat
is not a SessionEvents, and the wiring finds the port with isinstance (as ports.ServesHttp).

The core hands plain text; the platform cuts it to its limits and keeps it inert there.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Protocol, runtime_checkable

from bot.domain import ChannelKey


@dataclass(frozen=True, slots=True)
class SessionEvent:
    """What a platform's event of a session shows: `name` and `description` as plain text,
    `place` as typed (a room or a link), and the session's UTC `start` and `end`. `marker`
    names the session for good (its calendar UID) and ends the description: an event made
    by a process that died before noting its id is found by it, not made twice."""

    name: str
    description: str
    place: str
    start: datetime
    end: datetime
    marker: str = ""


@runtime_checkable
class SessionEvents(Protocol):
    """A platform that keeps a native event per session. Each call is one change; a refusal
    or a failure raises ChatError (bot.ports.platform), whose `posted_nothing` says the
    platform surely changed nothing."""

    def publish_event(
        self, *, channel: ChannelKey, event_id: str | None, event: SessionEvent
    ) -> str:
        """Make the session's event (`event_id` None) or change it; the event's id (a new one
        when the old one was removed on the platform meanwhile)."""
        ...

    def remove_event(self, *, channel: ChannelKey, event_id: str) -> None:
        """Remove the session's event (one already gone is no error)."""
        ...
