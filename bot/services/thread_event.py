"""What an edge read off an event about one message in a thread, for Room's reply, edit and
delete."""

from __future__ import annotations

from dataclasses import dataclass

from bot.domain import ChannelKey


@dataclass(frozen=True, slots=True)
class ThreadEvent:
    """What an edge read off an event about one message in a thread: where it is, whose it
    is, and how to tell its delivery apart (`delivery`: the platform's event id, the same on
    every retry; `stamp`: the event's own time, e.g. which edit; see event_ids)."""

    channel: ChannelKey
    thread_id: str
    message_id: str
    user: str = ""
    delivery: str | None = None
    stamp: str | None = None
