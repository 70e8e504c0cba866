"""APScheduler edge: one cron job per followed channel in its own time zone, plus a sweep.

The cron job posts on time. The sweep, every minute and once at start, posts whatever is due
and not yet posted: the catch-up after downtime, a DST day whose post time never happened on
the wall clock, a misfire. Posting twice is impossible either way (one post per local date).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from apscheduler.executors.pool import ThreadPoolExecutor
from apscheduler.schedulers.background import BackgroundScheduler
from apscheduler.triggers.cron import CronTrigger
from apscheduler.triggers.interval import IntervalTrigger

from bot.domain import Channel, ChannelKey
from bot.schedule_text import days_to_text

log = logging.getLogger(__name__)

SWEEP_SECONDS = 60
# On the one worker, like the posts: a worker stuck in a post stops the heartbeat, and
# /healthz says so once it is stale (bot.runtime.health).
HEARTBEAT_SECONDS = 10
_CHANNEL_PREFIX = "post:"


def channel_trigger(*, channel: Channel) -> CronTrigger:
    """The cron trigger of a channel's daily post, on its own wall clock."""
    schedule = channel.schedule
    return CronTrigger(
        day_of_week=days_to_text(days=schedule.weekdays),
        hour=schedule.post_time.hour,
        minute=schedule.post_time.minute,
        timezone=ZoneInfo(schedule.timezone),
    )


class PostScheduler:
    """Owns the BackgroundScheduler; one worker thread, so posts never race within a process."""

    def __init__(
        self,
        *,
        on_channel: Callable[[ChannelKey], None],
        on_sweep: Callable[[], None],
        on_heartbeat: Callable[[], None] = lambda: None,
        sweep_seconds: int = SWEEP_SECONDS,
    ) -> None:
        """Jobs call back into the composition root, which calls the posting service."""
        self.on_channel = on_channel
        self.on_sweep = on_sweep
        self.on_heartbeat = on_heartbeat
        self.sweep_seconds = sweep_seconds
        self.scheduler = BackgroundScheduler(
            timezone=UTC,
            executors={"default": ThreadPoolExecutor(1)},
            job_defaults={"coalesce": True, "max_instances": 1, "misfire_grace_time": 3600},
        )

    def start(self, *, channels: Sequence[Channel], paused: bool = False) -> None:
        """Build the jobs and start; the first sweep runs at once (the catch-up on start).
        `paused`: jobs are kept and rebuilt but nothing fires (tests read next_runs)."""
        self.rebuild(channels=channels)
        self.scheduler.add_job(
            self._safe_sweep,
            IntervalTrigger(seconds=self.sweep_seconds),
            id="sweep",
            next_run_time=datetime.now(UTC),
        )
        self.scheduler.add_job(
            self.on_heartbeat,
            IntervalTrigger(seconds=HEARTBEAT_SECONDS),
            id="heartbeat",
            next_run_time=datetime.now(UTC),
        )
        self.scheduler.start(paused=paused)

    def stand_by(self) -> None:
        """Fire nothing (another replica leads); the jobs are kept for when this one leads."""
        if self.scheduler.running:
            self.scheduler.pause()

    def lead(self) -> None:
        """Fire again, beginning with a heartbeat and a catch-up sweep at once: a one-off job of
        its own, so it is queued even while a sweep still runs (a second run of "sweep" would
        be refused)."""
        now = datetime.now(UTC)
        self.scheduler.modify_job("heartbeat", next_run_time=now)
        self.scheduler.add_job(
            self._safe_sweep, id="catch-up", replace_existing=True, next_run_time=now
        )
        self.scheduler.resume()

    def rebuild(self, *, channels: Sequence[Channel]) -> None:
        """Replace every channel job with the schedules the database holds now."""
        for job in self.scheduler.get_jobs():
            if job.id.startswith(_CHANNEL_PREFIX):
                job.remove()
        for channel in channels:
            if channel.paused:
                continue
            self.scheduler.add_job(
                self._safe_channel,
                channel_trigger(channel=channel),
                args=[channel.key],
                # The whole key: the same channel id on two platforms is two jobs.
                id=_CHANNEL_PREFIX + str(channel.key),
                replace_existing=True,
            )
        log.info("scheduled %d channel(s)", sum(not c.paused for c in channels))

    def next_runs(self) -> dict[str, datetime | None]:
        """Each channel job's next firing time (for logs and tests)."""
        return {
            job.id.removeprefix(_CHANNEL_PREFIX): job.next_run_time
            for job in self.scheduler.get_jobs()
            if job.id.startswith(_CHANNEL_PREFIX)
        }

    def _safe_channel(self, channel: ChannelKey) -> None:
        """A failing post is logged; the scheduler and other channels keep going."""
        try:
            self.on_channel(channel)
        except Exception:
            log.exception("posting to %s failed", channel)

    def _safe_sweep(self) -> None:
        """A failing sweep is logged; the next one tries again."""
        try:
            self.on_sweep()
        except Exception:
            log.exception("the sweep failed")

    def shutdown(self) -> None:
        """Stop, waiting for a running post to finish (nothing is left half-written)."""
        if self.scheduler.running:
            self.scheduler.shutdown(wait=True)
