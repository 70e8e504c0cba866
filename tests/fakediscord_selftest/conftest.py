"""Fixtures for the fake's own tests: a running FakeDiscord with discord.py pointed at it."""

from __future__ import annotations

import asyncio
import gc
import threading
import time
from collections.abc import Callable, Coroutine, Iterator
from typing import Any

import pytest

import bot.discord  # noqa: F401  (before discord.py is imported: silences its audioop warning)
from tests.fakediscord import FakeDiscord
from tests.fakediscord.client import pointed_at

import discord  # isort: skip  (after bot.discord, see above)

# Every scenario is bounded: a hung wait fails the test in seconds, not at pytest's timeout.
SCENARIO_TIMEOUT = 20


@pytest.fixture(autouse=True)
def no_thread_leaks() -> Iterator[None]:
    """Every thread a test starts (server loop, heartbeats) must be gone shortly after."""
    before = set(threading.enumerate())
    yield
    deadline = time.monotonic() + 2
    for thread in [t for t in threading.enumerate() if t not in before]:
        thread.join(max(0.0, deadline - time.monotonic()))  # the signal: the thread ended
    extra = [t for t in threading.enumerate() if t not in before and t.is_alive()]
    # Collect now so a ResourceWarning (unclosed socket) is blamed on this test.
    gc.collect()
    assert not extra, f"threads left running: {extra}"


@pytest.fixture
def fake() -> Iterator[FakeDiscord]:
    """A started FakeDiscord (#general, alice, bob) with discord.py pointed at it."""
    base, gateway = discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    with FakeDiscord() as f, pointed_at(f):
        yield f
    # pointed_at() must leave discord.py as it found it for the next test.
    assert base == discord.http.Route.BASE
    assert gateway == discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY


@pytest.fixture
def run() -> Callable[[Coroutine[Any, Any, None]], None]:
    """Run one async scenario to the end on a fresh event loop, bounded in time."""

    def go(scenario: Coroutine[Any, Any, None]) -> None:
        asyncio.run(asyncio.wait_for(scenario, SCENARIO_TIMEOUT))

    return go


@pytest.fixture
def make_client() -> Callable[..., discord.Client]:
    """Build discord.Clients (or a subclass) with every intent, ready 50 ms after GUILD_CREATE."""

    def build(cls: type[discord.Client] = discord.Client, **kwargs: Any) -> discord.Client:
        kwargs.setdefault("intents", discord.Intents.all())
        # discord.py waits guild_ready_timeout (default 2 s) after the last GUILD_CREATE.
        kwargs.setdefault("guild_ready_timeout", 0.05)
        return cls(**kwargs)

    return build
