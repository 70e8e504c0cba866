"""An aiohttp.web application served on 127.0.0.1 from an event loop of its own thread."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, TypeVar

from aiohttp import web

T = TypeVar("T")
# How long a call into the server loop may take before the caller gives up.
CALL_TIMEOUT = 10.0


class LoopServer:
    """Runs one aiohttp app on a random loopback port; start() and stop() from any thread."""

    def __init__(
        self, *, app: web.Application, before_stop: Callable[[], Awaitable[None]], name: str
    ) -> None:
        self._app, self._before_stop, self._name = app, before_stop, name
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._runner: web.AppRunner | None = None
        self.port = 0

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        """The server's event loop (running while started)."""
        if self._loop is None:
            raise RuntimeError("the fake Discord server is not started")
        return self._loop

    def start(self) -> None:
        """Start the loop thread, bind 127.0.0.1:0 and serve."""
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._run, name=self._name, daemon=True)
        self._thread.start()
        self.call(self._serve())

    def _run(self) -> None:
        """The thread: run the loop until stop(), then finish what is pending and close it."""
        loop = self.loop
        asyncio.set_event_loop(loop)
        loop.run_forever()
        # Whatever is still pending (a close handshake, a handler) is cancelled and awaited
        # here, so nothing is left half-done when the loop closes.
        pending = asyncio.all_tasks(loop)
        for task in pending:
            task.cancel()
        loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
        loop.run_until_complete(loop.shutdown_asyncgens())
        loop.run_until_complete(loop.shutdown_default_executor())
        loop.close()

    async def _serve(self) -> None:
        """Set the app up and bind the port."""
        # No access log, no signal handlers (we are not the main thread); a short
        # shutdown_timeout because stop() closes the long-lived WebSockets itself first.
        self._runner = web.AppRunner(
            self._app, handle_signals=False, access_log=None, shutdown_timeout=1.0
        )
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = int(self._runner.addresses[0][1])

    def call(self, coro: Coroutine[Any, Any, T], *, timeout: float = CALL_TIMEOUT) -> T:
        """Run a coroutine on the server loop from another thread and return its result."""
        if self._thread is not None and threading.current_thread() is self._thread:
            coro.close()
            raise RuntimeError("call() from the server loop itself would deadlock; await instead")
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def stop(self) -> None:
        """Close connections, stop serving, stop the loop, join the thread."""
        if self._loop is None or self._thread is None:
            return
        try:
            self.call(self._shutdown())
        finally:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join()
            self._loop = None

    async def _shutdown(self) -> None:
        """Close what the app holds open (WebSockets), then the app and its port."""
        await self._before_stop()
        if self._runner is not None:
            await self._runner.cleanup()
