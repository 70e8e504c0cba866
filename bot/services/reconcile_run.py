"""A channel's reconciliation run: claimed once among replicas, its window's posts read back
newest first (yesterday's thread matters more than last week's), each post applied and counted
as it is read, so a run stopped half-way (a kill, a deploy) goes on where it stopped.

Asking is cheap and durable: `want` stamps every channel of a platform with the moment events
may have been lost until (a process start, a new gateway session, a Socket Mode reconnect); a
post read back after that moment needs no second read, so two replicas starting together, or a
reconnect during a run, read each post once.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.domain import Post
from bot.ports import ChatError, Clock, UnitOfWork
from bot.ports.readback import ReadBack
from bot.services import reconcile
from bot.services.reconcile import Needs, Stopped
from bot.services.telemetry import Telemetry

log = logging.getLogger("paperclub")

# A claim not renewed for this long is taken over (its process froze or died elsewhere); a
# run renews it after every page it reads, and a page waits at most a minute or two for the
# platform's limits.
STALE_CLAIM = timedelta(minutes=5)


@dataclass(frozen=True, slots=True)
class Reconciler:
    """What a run needs: the archive, the clock, who this process is (and whether another
    holder is alive), the reactions that vote, the metrics, and the redraw queue."""

    uow: UnitOfWork[Needs]
    clock: Clock
    owner: str
    owner_alive: Callable[[str], bool]
    up: frozenset[str]
    down: frozenset[str]
    telemetry: Telemetry
    queue_redraw: Callable[[int], None]

    def want(self, *, platform: str, since: datetime) -> int:
        """Ask for the platform's channels to be read back for what may have been lost until
        `since`; how many channels were asked."""
        with self.uow() as store:
            return store.want_reconcile(platform=platform, since=since)

    def due(self, *, platform: str) -> list[int]:
        """The platform's channels with a run to do."""
        with self.uow(write=False) as store:
            return store.reconcile_due(platform=platform)

    def run(self, *, chat: ReadBack, channel_id: int, stopping: Callable[[], bool]) -> int | None:
        """Run (or go on with) one channel's reconciliation; the changes it found, or None
        when another process holds it or it stopped before the end."""
        now = self.clock.now()
        with self.uow(write=False) as store:
            holder = store.reconcile_holder(channel_id=channel_id)
        # A holder known dead (this host, its process gone) is taken over at once.
        dead = holder is not None and holder != self.owner and not self.owner_alive(holder)
        with self.uow() as store:
            run = store.claim_reconcile(
                channel_id=channel_id,
                owner=self.owner,
                now=now,
                stale_before=now if dead else now - STALE_CLAIM,
            )
        if run is None:
            return None
        with self.uow(write=False) as store:
            posts = store.posts_to_reconcile(run=run, since=now - timedelta(days=run.window_days))
        log.info("reconciling %s: %d post(s) to read back", run.channel, len(posts))
        names = frozenset(name.split("::", 1)[0] for name in self.up | self.down)
        total = 0
        for post in posts:
            if stopping():
                return None
            read_at = self.clock.now()
            try:
                seen = reconcile.read(
                    chat=chat,
                    post=post,
                    names=names,
                    stopping=stopping,
                    on_page=self._renew(channel_id=channel_id),
                )
            except Stopped:
                return None
            except Exception as error:  # one post that cannot be read holds up no other
                if stopping():
                    return None  # the process stops: a wait for the platform was cut short
                if isinstance(error, ChatError):
                    log.warning(
                        "could not read back post %s in %s: %s", post.id, run.channel, error
                    )
                else:
                    log.exception("could not read back post %s in %s", post.id, run.channel)
                if not self._progress(channel_id=channel_id, changes=0, failures=1):
                    return None
                continue
            try:
                found = self._apply(post=post, seen=seen, read_at=read_at, channel_id=channel_id)
            except Stopped:
                return None
            total += found.total
            if found.total:
                self.queue_redraw(post.id)  # once per post, however many changes
            if not self._progress(channel_id=channel_id, changes=found.total, failures=0):
                return None
        with self.uow() as store:
            store.finish_reconcile(channel_id=channel_id, owner=self.owner, now=self.clock.now())
        log.info("reconciled %s: %d change(s)", run.channel, total)
        return total

    def _apply(
        self, *, post: Post, seen: reconcile.Seen, read_at: datetime, channel_id: int
    ) -> reconcile.Found:
        """Apply one post's read, in a transaction that first renews the claim: a run another
        process took over meanwhile (its claim went stale) writes nothing (Stopped)."""

        def still_ours(store: Needs) -> bool:
            return store.reconcile_progress(
                channel_id=channel_id, owner=self.owner, changes=0, failures=0, now=self.clock.now()
            )

        return reconcile.apply(
            uow=self.uow,
            post=post,
            seen=seen,
            read_at=read_at,
            up=self.up,
            down=self.down,
            telemetry=self.telemetry,
            still_ours=still_ours,
        )

    def _progress(self, *, channel_id: int, changes: int, failures: int) -> bool:
        """Count a post's result and renew the claim; False when another process took it."""
        with self.uow() as store:
            kept = store.reconcile_progress(
                channel_id=channel_id,
                owner=self.owner,
                changes=changes,
                failures=failures,
                now=self.clock.now(),
            )
        if not kept:
            log.warning("another process took over the reconciliation of channel %s", channel_id)
        return kept

    def _renew(self, *, channel_id: int) -> Callable[[], None]:
        """After each page: renew the claim (a long thread under tight limits takes minutes)."""

        def renew() -> None:
            if not self._progress(channel_id=channel_id, changes=0, failures=0):
                raise Stopped  # another process took the run over: this one reads no further

        return renew
