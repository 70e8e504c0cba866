"""The bridge between discord.py's asyncio and the synchronous core.

discord.py runs on an event loop; the core (services, the database, the scheduler) blocks. So
the loop runs on a thread of its own, the scheduler's thread hands it coroutines and waits for
their results (`call`), and listeners on the loop hand blocking core calls to a small pool of
worker threads (`blocking`), so a slow database write never stalls the gateway's heartbeats.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")

# Core calls from listeners at once: the database has one writer anyway (group commit turns
# concurrency into shared commits, bot/db/group_commit.py), ten is what Slack's pool uses.
WORKERS = 10


class BridgeClosed(RuntimeError):
    """The loop is gone (the platform is stopping): nothing more can run on it."""


class Bridge:
    """An event loop on its own thread, and the worker pool its listeners block in."""

    def __init__(self, *, name: str = "discord", workers: int = WORKERS) -> None:
        """Start the loop's thread and wait until the loop runs."""
        self.loop = asyncio.new_event_loop()
        self._lanes: dict[str, asyncio.Future[None]] = {}  # lane -> its last call's end
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix=f"{name}-core")
        started = threading.Event()
        self._thread = threading.Thread(
            target=self._run, args=(started,), name=f"{name}-loop", daemon=True
        )
        self._thread.start()
        started.wait()
        self._closed = False

    def _run(self, started: threading.Event) -> None:
        """The loop's thread: run until stopped, then close the loop."""
        asyncio.set_event_loop(self.loop)
        self.loop.call_soon(started.set)
        try:
            self.loop.run_forever()
        finally:
            self.loop.run_until_complete(self.loop.shutdown_asyncgens())
            self.loop.close()

    def call(self, coro: Coroutine[Any, Any, T], *, timeout: float | None = 60.0) -> T:
        """Run a coroutine on the loop from another thread and wait for its result."""
        if self._closed or threading.current_thread() is self._thread:
            coro.close()  # never awaited: say so without a "was never awaited" warning
            reason = "closed" if self._closed else "asked to wait for itself"
            raise BridgeClosed(f"the Discord loop is {reason}")
        future = asyncio.run_coroutine_threadsafe(coro, self.loop)
        try:
            return future.result(timeout)
        except TimeoutError:
            # Nobody waits for it any more: stop it rather than let it act later, unseen.
            future.cancel()
            raise

    async def blocking(self, fn: Callable[[], T], *, lane: str | None = None) -> T:
        """Run a blocking core call on a worker thread, from a coroutine on the loop. Calls in
        one `lane` (one person's votes, one message's edits) run one at a time, in the order
        they were made: the gateway delivers events in order, but the workers would commit
        them in any order, and the latest action must win."""
        if lane is None:
            return await self.loop.run_in_executor(self._pool, fn)
        # Taken before the first await, so in the order the listeners were called.
        previous, mine = self._lanes.get(lane), self.loop.create_future()
        self._lanes[lane] = mine
        try:
            if previous is not None:
                await asyncio.wait([previous])  # done either way, never raises
            return await self.loop.run_in_executor(self._pool, fn)
        finally:
            mine.set_result(None)
            if self._lanes.get(lane) is mine:
                del self._lanes[lane]

    def close(self, *, timeout: float = 10.0) -> None:
        """Finish the core calls under way, stop the loop and join its thread."""
        if self._closed:
            return
        self._closed = True
        self._pool.shutdown(wait=True, cancel_futures=True)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(timeout)
