"""What happened: recorded requests, injected faults, and waiting (sync or async) for both."""

from __future__ import annotations

import asyncio
import contextlib
import copy
import math
import threading
import time
from collections.abc import Callable

from .model import Failure, JsonDict, RecordedRequest, path_pattern


class Journal:
    """The fake's shared lock, its change signal, the request log and the fault queue.

    Every piece of state takes this one re-entrant lock, so a REST call runs whole under it,
    and anything that changes state calls notify() so both kinds of waiter wake up: threads
    blocked in wait_for() and coroutines (on any event loop) awaiting wait_for_async().
    """

    def __init__(self) -> None:
        self.lock = threading.RLock()
        self._changed = threading.Condition(self.lock)
        self._async_waiters: list[tuple[asyncio.AbstractEventLoop, asyncio.Event]] = []
        self._requests: list[RecordedRequest] = []
        self._failures: list[Failure] = []

    # -- waiting ---------------------------------------------------------------------------

    def notify(self) -> None:
        """Wake every waiter so it re-checks its predicate."""
        with self.lock:
            self._changed.notify_all()
            waiters = list(self._async_waiters)
        for loop, event in waiters:
            # The waiter's loop may have closed since (its test ended): nothing to wake.
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(event.set)

    def wait_for(self, *, predicate: Callable[[], bool], timeout: float) -> bool:
        """Block this thread until predicate() (run under the lock) holds; False on timeout."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while not predicate():
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                self._changed.wait(remaining)
            return True

    async def wait_for_async(self, *, predicate: Callable[[], bool], timeout: float) -> bool:
        """Await (without blocking the loop) until predicate() holds; False on timeout."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            event = asyncio.Event()
            entry = (loop, event)
            with self.lock:
                if predicate():
                    return True
                self._async_waiters.append(entry)
            try:
                remaining = deadline - loop.time()
                if remaining <= 0:
                    return False
                await asyncio.wait_for(event.wait(), remaining)
            except TimeoutError:
                return False
            finally:
                with self.lock:
                    self._async_waiters.remove(entry)

    # -- request log -----------------------------------------------------------------------

    def record(self, *, request: RecordedRequest) -> None:
        """Append a request (with its answer) to the log."""
        with self.lock:
            self._requests.append(request)
        self.notify()

    def requests(self, *, method: str | None, path: str | None) -> list[RecordedRequest]:
        """Recorded requests, optionally filtered by method and path (template or exact)."""
        with self.lock:
            return [r for r in self._requests if r.matches(method=method, path=path)]

    # -- faults ----------------------------------------------------------------------------

    def add_failure(self, *, failure: Failure) -> None:
        """Queue a fault for the next matching request(s)."""
        with self.lock:
            self._failures.append(failure)

    def take_failure(self, *, method: str, path: str) -> Failure | None:
        """Consume one use of the first queued fault matching this request, if any."""
        with self.lock:
            for failure in self._failures:
                if failure.method == method and failure.pattern.match(path):
                    failure.remaining -= 1
                    if failure.remaining <= 0:
                        self._failures.remove(failure)
                    return copy.copy(failure)
        return None


def make_failure(
    *,
    method: str,
    path: str,
    status: int,
    retry_after: float,
    times: int,
    is_global: bool,
    code: int | None,
    message: str | None,
) -> Failure:
    """A Failure with Discord's default code and message for the status."""
    defaults: dict[int, tuple[int, str]] = {
        429: (0, "You are being rate limited."),
        500: (0, "500: Internal Server Error"),
        502: (0, "502: Bad Gateway"),
        503: (0, "503: Service Unavailable"),
    }
    default_code, default_message = defaults.get(status, (0, f"{status}: Error"))
    return Failure(
        method=method.upper(),
        pattern=path_pattern(template=path),
        status=status,
        retry_after=retry_after,
        is_global=is_global,
        code=default_code if code is None else code,
        message=default_message if message is None else message,
        remaining=times,
    )


def failure_answer(*, failure: Failure) -> tuple[JsonDict, dict[str, str]]:
    """The body and headers Discord sends for a fault (429s: retry_after and X-RateLimit-*)."""
    if failure.status != 429:
        return {"message": failure.message, "code": failure.code}, {}
    body: JsonDict = {
        "message": failure.message,
        "retry_after": failure.retry_after,
        "global": failure.is_global,
    }
    if failure.code:
        body["code"] = failure.code
    headers = {
        "Retry-After": str(max(1, math.ceil(failure.retry_after))),
        "X-RateLimit-Limit": "5",
        "X-RateLimit-Remaining": "0",
        "X-RateLimit-Reset": f"{time.time() + failure.retry_after:.3f}",
        "X-RateLimit-Reset-After": f"{failure.retry_after:.3f}",
        "X-RateLimit-Bucket": "fakediscord-bucket",
        "X-RateLimit-Scope": "global" if failure.is_global else "user",
    }
    if failure.is_global:
        headers["X-RateLimit-Global"] = "true"
    return body, headers
