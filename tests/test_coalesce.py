"""The coalescer: a burst becomes a leading flush and a trailing one, never more than one per
interval, and the last touch is always followed by a flush."""

from __future__ import annotations

import itertools
import threading
import time

from bot.runtime.coalesce import MAX_RETRIES, Coalescer


def test_burst_is_coalesced_and_last_touch_flushed() -> None:
    seen: list[tuple[str, float]] = []
    lock = threading.Lock()

    def flush(key: object) -> None:
        with lock:
            seen.append((str(key), time.monotonic()))

    coalescer = Coalescer(flush=flush, interval=0.2)
    try:
        start = time.monotonic()
        while time.monotonic() - start < 0.5:
            coalescer.touch("a")
            time.sleep(0.005)
        last_touch = time.monotonic()
        assert coalescer.drain(timeout=5)
    finally:
        coalescer.close()
    times = [t for key, t in seen if key == "a"]
    assert 2 <= len(times) <= 5, times  # ~100 touches in 0.5 s
    assert all(b - a >= 0.19 for a, b in itertools.pairwise(times))
    assert times[-1] >= last_touch - 0.2  # a flush came after (or with) the last touch


def test_keys_are_independent_and_failures_are_retried() -> None:
    calls: list[object] = []
    lock = threading.Lock()

    def flush(key: object) -> None:
        with lock:
            calls.append(key)
        if key == "boom" or (key == "flaky" and calls.count("flaky") < 3):
            raise RuntimeError("chat.update failed")

    coalescer = Coalescer(flush=flush, interval=0.02)
    try:
        for key in ("boom", "x", "flaky"):
            coalescer.touch(key)
        assert coalescer.drain(timeout=10)
    finally:
        coalescer.close()
    assert calls.count("x") == 1
    assert calls.count("flaky") == 3  # failed twice, then redrawn
    assert calls.count("boom") == MAX_RETRIES + 1  # tried, retried with backoff, given up
