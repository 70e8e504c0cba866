"""Coalesce bursts: flush(key) runs at most once per interval per key, and always after the last
touch, so a burst of 200 clicks makes a handful of chat.update calls and the final count is right
(each flush reads the counts afresh)."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Hashable

log = logging.getLogger(__name__)
MAX_RETRIES = 5
MAX_BACKOFF = 60.0


class Coalescer:
    """Leading edge at once, then at most one trailing flush per interval, per key."""

    def __init__(
        self,
        *,
        flush: Callable[[Hashable], None],
        interval: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """Start the worker thread that runs the flushes."""
        self._flush = flush
        self._interval = interval
        self._clock = clock
        self._due: dict[Hashable, float] = {}
        self._last: dict[Hashable, float] = {}
        self._cond = threading.Condition()
        self._closed = False
        self._busy = 0
        self._failures: dict[Hashable, int] = {}
        self._worker = threading.Thread(target=self._run, name="coalescer", daemon=True)
        self._worker.start()

    def touch(self, key: Hashable) -> None:
        """Something changed for `key`: flush it soon (now, if it was quiet for an interval)."""
        with self._cond:
            if self._closed or key in self._due:
                return
            last = self._last.get(key)
            now = self._clock()
            self._due[key] = now if last is None else max(now, last + self._interval)
            self._cond.notify()

    def _next(self) -> Hashable | None:
        """Wait for the earliest due key and take it; None once closed and drained."""
        with self._cond:
            while True:
                if not self._due:
                    if self._closed:
                        return None
                    self._cond.wait()
                    continue
                key, due = min(self._due.items(), key=lambda item: item[1])
                wait = due - self._clock()
                if wait > 0 and not self._closed:
                    self._cond.wait(timeout=wait)
                    continue
                del self._due[key]
                self._last[key] = self._clock()
                self._busy += 1
                return key

    def _run(self) -> None:
        """Flush keys as they fall due; a failing flush is retried with backoff (a message must
        not keep stale counts until the next vote) and never stops the worker."""
        while (key := self._next()) is not None:
            failed = False
            try:
                self._flush(key)
            except Exception:
                failed = True
                log.exception("flushing %r failed", key)
            finally:
                with self._cond:
                    self._busy -= 1
                    self._retry_later(key=key, failed=failed)
                    self._cond.notify_all()

    def _retry_later(self, *, key: Hashable, failed: bool) -> None:
        """After a failure, try the key again: 2, 4, 8... intervals, up to MAX_RETRIES times."""
        if not failed:
            self._failures.pop(key, None)
            return
        count = self._failures.get(key, 0) + 1
        if count > MAX_RETRIES or self._closed:
            self._failures.pop(key, None)
            log.error("giving up on %r after %d failed flushes", key, count)
            return
        self._failures[key] = count
        if key not in self._due:
            self._due[key] = self._clock() + min(self._interval * 2**count, MAX_BACKOFF)

    def drain(self, *, timeout: float = 10.0) -> bool:
        """Wait until nothing is due or running (tests, shutdown); False on timeout."""
        deadline = self._clock() + timeout
        with self._cond:
            while self._due or self._busy:
                left = deadline - self._clock()
                if left <= 0:
                    return False
                self._cond.wait(timeout=min(left, 0.05))
        return True

    def close(self) -> None:
        """Flush what is due at once, then stop the worker."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        self._worker.join(timeout=10)
