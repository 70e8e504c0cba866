"""The pace each service asks for: a burst of requests never comes faster, across threads."""

from __future__ import annotations

import itertools
import threading

from bot.enrich.fetch import Pace


class FakeTime:
    """A clock that sleeping moves forward, and a record of the sleeps."""

    def __init__(self) -> None:
        """At zero."""
        self.now = 0.0
        self.lock = threading.Lock()

    def clock(self) -> float:
        """Now."""
        with self.lock:
            return self.now

    def sleep(self, seconds: float) -> None:
        """Jump ahead (the booking was made under the pace's lock, so order is kept)."""
        with self.lock:
            self.now += seconds


def test_a_burst_of_fifty_is_spaced_three_seconds_apart_for_arxiv() -> None:
    time = FakeTime()
    pace = Pace(clock=time.clock, sleep=time.sleep)
    starts = []
    for _ in range(50):
        pace.wait(service="arxiv")
        starts.append(time.clock())
    gaps = [b - a for a, b in itertools.pairwise(starts)]
    assert min(gaps) >= 3.0
    assert starts[-1] == 49 * 3.0  # and no slower than asked


def test_services_are_paced_apart_and_retry_after_stretches_the_wait() -> None:
    time = FakeTime()
    pace = Pace(clock=time.clock, sleep=time.sleep)
    pace.wait(service="arxiv")
    pace.wait(service="crossref")  # another service: no wait for arXiv's pace
    assert time.clock() == 0.0
    pace.wait(service="crossref", at_least=20.0)  # a 503 said Retry-After: 20
    assert time.clock() == 20.0
    pace.wait(service="crossref")
    assert time.clock() == 21.0


def test_threads_share_one_pace() -> None:
    time = FakeTime()
    pace = Pace(clock=time.clock, sleep=lambda _s: None)  # book only: the slots are the proof
    booked: list[float] = []
    lock = threading.Lock()

    def ask() -> None:
        for _ in range(10):
            pace.wait(service="arxiv")
            with lock:
                booked.append(pace._next["arxiv"])

    threads = [threading.Thread(target=ask) for _ in range(5)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(booked) == [3.0 * n for n in range(1, 51)]
