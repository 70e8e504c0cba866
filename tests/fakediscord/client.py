"""Pointing the real discord.py at a FakeDiscord, and running a client against it in a test."""

from __future__ import annotations

import bot.discord  # noqa: F401  (first: imports discord.py with its audioop warning silenced)

# isort: split
import asyncio
import contextlib
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any

import discord
import discord.gateway
import discord.http
import yarl

from .fake import FakeDiscord


@contextlib.contextmanager
def pointed_at(fake: FakeDiscord) -> Iterator[None]:
    """Point discord.py at the fake (Route.BASE, DEFAULT_GATEWAY); restore both after.

    discord.py 2.7 connects to DEFAULT_GATEWAY (GET /gateway/bot is only asked by
    AutoShardedClient), then resumes at READY's resume_gateway_url; both are the fake's.
    """
    route, socket = discord.http.Route, discord.gateway.DiscordWebSocket
    old_base, old_gateway = route.BASE, socket.DEFAULT_GATEWAY
    route.BASE = fake.api_url
    socket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)
    try:
        yield
    finally:
        route.BASE, socket.DEFAULT_GATEWAY = old_base, old_gateway


async def _first(*, task: asyncio.Task[None], waiting: Awaitable[Any], timeout: float) -> None:
    """Await `waiting`, but fail at once (with its error) if the client task ends first."""
    waiter = asyncio.ensure_future(waiting)
    done, _ = await asyncio.wait(
        {task, waiter}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
    )
    if waiter in done:
        waiter.result()
        return
    waiter.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await waiter
    if task in done:
        task.result()
        raise RuntimeError("the discord.py client stopped before it was ready")
    raise TimeoutError(f"the discord.py client was not ready within {timeout}s")


def expect(
    client: discord.Client,
    event: str,
    *,
    check: Callable[..., bool] | None = None,
    timeout: float = 5,
) -> asyncio.Task[Any]:
    """Start waiting for a client event now, before the call that causes it: the fake
    dispatches events a REST call causes before it answers the call, so a wait_for begun
    after `await channel.send(...)` would miss them."""
    return asyncio.ensure_future(client.wait_for(event, check=check, timeout=timeout))


@contextlib.asynccontextmanager
async def running(
    client: discord.Client, fake: FakeDiscord, *, timeout: float = 10
) -> AsyncIterator[list[BaseException]]:
    """Run client.start(fake.token) until on_ready, yield, then close it and re-raise.

    Yields the list of exceptions event handlers raised (discord.py only logs those); the
    first one is re-raised on exit, as is anything that ended the client's own task.
    """
    errors: list[BaseException] = []

    async def on_error(event: str, /, *args: Any, **kwargs: Any) -> None:
        """discord.py's error hook (positional by its contract): keep the exception."""
        error = sys.exc_info()[1]
        if error is not None:
            errors.append(error)

    client.on_error = on_error  # type: ignore[method-assign]
    task = asyncio.create_task(client.start(fake.token))
    try:
        # login() creates the ready event; IDENTIFY comes after it, so wait for that first.
        await _first(
            task=task,
            waiting=fake.wait_ready_async(count=fake.counts["identifies"] + 1, timeout=timeout),
            timeout=timeout,
        )
        await _first(task=task, waiting=client.wait_until_ready(), timeout=timeout)
        yield errors
    finally:
        await client.close()
        await task
    if errors:
        raise errors[0]
