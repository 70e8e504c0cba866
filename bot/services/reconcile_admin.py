"""/paperclub reconcile (admins) and what the Home and the CLI show of reconciliation."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Protocol

from bot.domain import ChannelKey
from bot.ports import ChannelsStore, UnitOfWork
from bot.ports.reconcile import MAX_WINDOW_DAYS, ReconcileStatus, ReconcileStore
from bot.services.reply import Reply
from bot.wording import reconcile as words
from bot.wording import replies


class Needs(ChannelsStore, ReconcileStore, Protocol):
    """The roles of the archive this service uses: a unit of work handing out more is fine."""


def ask(*, uow: UnitOfWork[Needs], channel: ChannelKey, args: list[str], now: datetime) -> Reply:
    """Ask for this channel alone to be read back now (the Room wakes the reconciler), after
    setting the window when a number of days is given."""
    days: int | None = None
    if args:
        if len(args) != 1 or not args[0].isdigit() or not 1 <= int(args[0]) <= MAX_WINDOW_DAYS:
            return Reply(message=words.USAGE)
        days = int(args[0])
    with uow() as store:
        if store.channel(key=channel) is None:
            return Reply(message=replies.NOT_FOLLOWED)
        if days is not None:
            store.set_reconcile_window(channel=channel, days=days)
        store.want_channel_reconciled(channel=channel, since=now)
        [status] = store.reconcile_status(channels=[channel])
    return Reply(
        message=words.asked(status=status, window_changed=days is not None), reconcile=True
    )


def statuses(
    *, uow: UnitOfWork[Needs], channels: Sequence[ChannelKey] | None
) -> list[ReconcileStatus]:
    """What the runs of these channels (None: every followed one) did."""
    with uow(write=False) as store:
        return store.reconcile_status(channels=channels)
