"""Housekeeping the sweep does: forget event ids long past Slack's retries."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Protocol

from bot.ports import ActivityStore, UnitOfWork


class Needs(ActivityStore, Protocol):
    """The roles of the archive this service uses: a unit of work handing out more is fine."""


# Slack retries within minutes (an hour at most); two days leaves room for a long outage.
KEEP_EVENTS = timedelta(days=2)


def forget_old_events(
    *, uow: UnitOfWork[Needs], now: datetime, keep: timedelta = KEEP_EVENTS
) -> int:
    """Drop processed-event ids older than `keep`; how many went."""
    with uow() as store:
        return store.prune_events(before=now - keep)
