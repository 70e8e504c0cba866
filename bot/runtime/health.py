"""Liveness: the scheduler's heartbeat and what /healthz reports from it and the database.

/healthz is public, so it says what kind of failure it found in a fixed word (unreachable,
disk full, read-only, locked...) and never the driver's message, which names the host, the
port or the file; the message goes to the log instead.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from bot.runtime.db_probe import kind_of

log = logging.getLogger(__name__)

# The sweep beats every minute and the heartbeat job every 10 s on the scheduler's one worker;
# a post in flight (Slack's retries included) may hold that worker well under this.
STALE_AFTER_SECONDS = 90.0


class Heartbeat:
    """When the scheduler (or, on a standby replica, the leadership loop) last said it lives."""

    def __init__(self, *, clock: Callable[[], float] = time.monotonic) -> None:
        """Never beaten yet: a process is healthy only once its scheduler ran."""
        self._clock = clock
        self._last: float | None = None
        self._role = "starting"
        self._lock = threading.Lock()

    def beat(self, *, role: str) -> None:
        """The beater is alive now, as `role` (leader, standby, single)."""
        with self._lock:
            self._last, self._role = self._clock(), role

    def read(self) -> tuple[str, float | None]:
        """The last role and the seconds since the last beat (None: never)."""
        with self._lock:
            last, role = self._last, self._role
        return role, None if last is None else self._clock() - last


@dataclass(frozen=True, slots=True)
class Health:
    """What /healthz says: healthy or not, and a line per check."""

    healthy: bool
    checks: dict[str, str]


def check(
    *, ping: Callable[[], None], heartbeat: Heartbeat, stale_after: float = STALE_AFTER_SECONDS
) -> Health:
    """The database passes `ping` (bot.runtime.db_probe.probe_database: it takes a write)
    and the heartbeat is fresh: healthy; else what is wrong, in words that name no host, port
    or path (the details are logged)."""
    checks: dict[str, str] = {}
    healthy = True
    try:
        ping()
        checks["database"] = "ok"
    except Exception as exc:  # any failure of the database is the answer, not a crash
        healthy = False
        checks["database"] = kind_of(exc)
        log.warning(
            "health check: the database is %s: %s: %s",
            checks["database"],
            type(exc).__name__,
            str(exc)[:300],
        )
    role, age = heartbeat.read()
    if age is None:
        healthy = False
        checks["scheduler"] = "no heartbeat yet"
    elif age > stale_after:
        healthy = False
        checks["scheduler"] = f"{role}: no heartbeat for {age:.0f} s (limit {stale_after:g} s)"
    else:
        checks["scheduler"] = f"{role}: heartbeat {age:.0f} s ago"
    return Health(healthy=healthy, checks=checks)
