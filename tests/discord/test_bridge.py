"""The asyncio bridge: coroutines from the core's threads, blocking calls off the loop."""

from __future__ import annotations

import asyncio
import threading

import pytest

from bot.discord.bridge import Bridge, BridgeClosed


def test_a_coroutine_runs_on_the_loop_thread_and_returns_its_result() -> None:
    bridge = Bridge(name="t1")
    try:

        async def where() -> str:
            """The thread the coroutine ran on."""
            return threading.current_thread().name

        assert bridge.call(where()) == "t1-loop"
    finally:
        bridge.close()


def test_an_exception_reaches_the_caller() -> None:
    bridge = Bridge(name="t2")
    try:

        async def fails() -> None:
            """Raises on the loop."""
            raise ValueError("refused")

        with pytest.raises(ValueError, match="refused"):
            bridge.call(fails())
    finally:
        bridge.close()


def test_blocking_calls_run_off_the_loop_which_keeps_serving() -> None:
    bridge = Bridge(name="t3")
    release = threading.Event()
    try:

        async def scenario() -> tuple[str, bool]:
            """A blocking call waits on a worker while the loop answers a timer meanwhile."""
            held = asyncio.ensure_future(
                bridge.blocking(lambda: (release.wait(10), threading.current_thread().name)[1])
            )
            # Were the call on the loop, this coroutine could not go on until it returned.
            await asyncio.sleep(0)
            served = not held.done()
            release.set()
            return await held, served

        worker, served = bridge.call(scenario())
        assert worker.startswith("t3-core")
        assert served
    finally:
        bridge.close()


def test_a_closed_bridge_refuses_and_leaves_no_thread() -> None:
    bridge = Bridge(name="t4")
    bridge.close()

    async def nothing() -> None:
        """Never runs."""

    with pytest.raises(BridgeClosed, match="closed"):
        bridge.call(nothing())
    assert not any(t.name.startswith("t4-") for t in threading.enumerate())
    assert bridge.loop.is_closed()


def test_a_call_that_times_out_is_cancelled_not_left_running() -> None:
    bridge = Bridge(name="t5")
    cancelled = threading.Event()
    try:

        async def never() -> None:
            """Waits forever, and says when it is cancelled."""
            try:
                await asyncio.Event().wait()
            except asyncio.CancelledError:
                cancelled.set()
                raise

        with pytest.raises(TimeoutError):
            bridge.call(never(), timeout=0.05)
        assert cancelled.wait(5)
    finally:
        bridge.close()
