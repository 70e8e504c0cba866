"""The Store's part for reconciliation: which channels want their recent posts read back, who
runs that, what each post holds now in the archive, and what the runs found."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from bot.domain import ChannelKey, Post

# How far back a run reads, in days, unless an admin says otherwise; and the most they may.
DEFAULT_WINDOW_DAYS = 7
MAX_WINDOW_DAYS = 30


@dataclass(frozen=True, slots=True)
class StoredVote:
    """A person's vote on a post as the archive holds it; `value` 0 when they withdrew it,
    `changed_at` when it was set or withdrawn."""

    user: str
    value: int
    source: str
    changed_at: datetime


@dataclass(frozen=True, slots=True)
class StoredComment:
    """A comment as the archive holds it, live or deleted; `changed_at`: when its text last
    changed here (its edit, else when it was stored)."""

    message_id: str
    user: str
    text: str
    deleted: bool
    changed_at: datetime


@dataclass(frozen=True, slots=True)
class ReconcileRun:
    """A run a process holds for a channel: posts read back at or after `wanted_at` need no
    second read (`wanted_at`: the latest moment events may have been lost until)."""

    channel: ChannelKey
    channel_id: int
    window_days: int
    wanted_at: datetime
    started_at: datetime


@dataclass(frozen=True, slots=True)
class ReconcileStatus:
    """What an admin sees of a channel's reconciliation."""

    channel: ChannelKey
    window_days: int
    wanted_at: datetime | None
    started_at: datetime | None
    finished_at: datetime | None
    running: bool
    changes: int
    failures: int


class ReconcileStore(Protocol):
    """Reconciliation's bookkeeping and reads, inside one unit of work."""

    def want_reconcile(self, *, platform: str, since: datetime) -> int:
        """Ask for every followed channel of a platform to be read back for what may have been
        lost until `since` (kept when later than what was asked before); how many channels."""
        ...

    def want_channel_reconciled(self, *, channel: ChannelKey, since: datetime) -> None:
        """Ask for one followed channel to be read back for what may have been lost until
        `since` (an admin's ask: no other channel, no other workspace)."""
        ...

    def reconcile_due(self, *, platform: str) -> list[int]:
        """The channel ids of a platform with a run asked for and not yet run, or one left
        unfinished."""
        ...

    def reconcile_holder(self, *, channel_id: int) -> str | None:
        """The process holding the channel's run, if one does."""
        ...

    def claim_reconcile(
        self, *, channel_id: int, owner: str, now: datetime, stale_before: datetime
    ) -> ReconcileRun | None:
        """Take the channel's run for `owner` (free, its own, or held by a claim not renewed
        since `stale_before`); None when another holds it or nothing is due. An unfinished
        run is taken over where it stopped."""
        ...

    def reconcile_progress(
        self, *, channel_id: int, owner: str, changes: int, failures: int, now: datetime
    ) -> bool:
        """Add what one post's read found and renew the claim; False when the claim is lost."""
        ...

    def finish_reconcile(self, *, channel_id: int, owner: str, now: datetime) -> None:
        """End the owner's run: it is done and the claim is free."""
        ...

    def posts_to_reconcile(self, *, run: ReconcileRun, since: datetime) -> list[Post]:
        """The channel's posts made since `since` and not read back since `run.wanted_at`,
        newest first."""
        ...

    def mark_reconciled(self, *, post_id: int, at: datetime) -> None:
        """Note that the post was read back at `at` (its reads began then)."""
        ...

    def votes_on(self, *, post_id: int) -> list[StoredVote]:
        """Every person's vote on the post, withdrawn ones (value 0) included."""
        ...

    def comments_on(self, *, post: Post) -> list[StoredComment]:
        """Every comment of the post's thread, deleted ones included."""
        ...

    def forget_gone_presence(self, *, prefix: str, keep: frozenset[str]) -> int:
        """Forget the presence keys starting with `prefix` (one message's reactions:
        event_ids.message_presence) but those in `keep` (the reactions a read-back found):
        a reaction taken back unheard leaves none to swallow its next add. How many went."""
        ...

    def reconcile_status(self, *, channels: Sequence[ChannelKey] | None) -> list[ReconcileStatus]:
        """What the runs of these channels (None: every followed channel) did, by channel."""
        ...

    def set_reconcile_window(self, *, channel: ChannelKey, days: int) -> None:
        """How many days of the channel's posts a run reads back."""
        ...
