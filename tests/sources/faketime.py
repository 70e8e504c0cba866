"""A monotonic clock that only sleeping moves, for the fetcher's per-host spacing: the tests
read the sleeps asked for instead of waiting them out."""

from __future__ import annotations

import threading

from bot.outbound.fetch import PoliteFetcher
from bot.outbound.spacing import HostTurns


class FakeTime:
    """Now, moved forward by each sleep; every sleep is recorded."""

    def __init__(self) -> None:
        """At zero, nothing slept."""
        self.now = 0.0
        self.sleeps: list[float] = []
        self._lock = threading.Lock()

    def clock(self) -> float:
        """Now."""
        with self._lock:
            return self.now

    def sleep(self, seconds: float) -> None:
        """Jump ahead at once."""
        with self._lock:
            self.sleeps.append(seconds)
            self.now += seconds


def fetcher_on(
    time: FakeTime, *, gaps: dict[str, float] | None = None, **options: object
) -> PoliteFetcher:
    """A fetcher on the fake clock that may reach the fakes on 127.0.0.1."""
    turns = HostTurns(clock=time.clock, sleep=time.sleep, gaps=gaps or {})
    return PoliteFetcher(turns=turns, allow_private=True, **options)  # type: ignore[arg-type]
