"""Waiting for the fake to see something: sync for clients on other threads, async on yours."""

from __future__ import annotations

from collections.abc import Callable

from .gateway import Gateway
from .model import JsonDict, RecordedRequest
from .state import State


class Waiting:
    """Mixin for FakeDiscord: block (threads) or await (coroutines) until state changes.

    Nothing polls or sleeps: every change to the fake wakes the waiters, which re-check.
    Use the async forms when the discord.py client runs on the caller's own event loop:
    blocking that loop would stop the client from doing what is being waited for.
    """

    state: State
    gateway: Gateway

    def wait_until(self, predicate: Callable[[], bool], *, timeout: float = 5) -> None:
        """Block until predicate() holds (re-checked on every change); TimeoutError if not."""
        if not self.state.journal.wait_for(predicate=predicate, timeout=timeout):
            raise TimeoutError(f"condition not met within {timeout}s")

    async def wait_until_async(self, predicate: Callable[[], bool], *, timeout: float = 5) -> None:
        """Await until predicate() holds, without blocking the loop; TimeoutError if not."""
        if not await self.state.journal.wait_for_async(predicate=predicate, timeout=timeout):
            raise TimeoutError(f"condition not met within {timeout}s")

    def _ready(self, *, count: int) -> Callable[[], bool]:
        """Predicate: `count` IDENTIFYs fully answered."""
        return lambda: self.gateway.identifies >= count

    def wait_ready(self, *, count: int = 1, timeout: float = 5) -> None:
        """Block until `count` IDENTIFYs got READY and every GUILD_CREATE."""
        self.wait_until(self._ready(count=count), timeout=timeout)

    async def wait_ready_async(self, *, count: int = 1, timeout: float = 5) -> None:
        """Await until `count` IDENTIFYs got READY and every GUILD_CREATE."""
        await self.wait_until_async(self._ready(count=count), timeout=timeout)

    async def wait_resumed_async(self, *, count: int = 1, timeout: float = 5) -> None:
        """Await until `count` RESUMEs were answered (missed events replayed, RESUMED sent)."""
        await self.wait_until_async(lambda: self.gateway.resumes >= count, timeout=timeout)

    def _requested(self, *, method: str, path: str, count: int) -> Callable[[], bool]:
        """Predicate: `count` requests matching method and path recorded."""
        return lambda: len(self.state.journal.requests(method=method, path=path)) >= count

    def wait_request(
        self, method: str, path: str, *, count: int = 1, timeout: float = 5
    ) -> RecordedRequest:
        """Block until `count` matching requests arrived -> the count-th one."""
        self.wait_until(self._requested(method=method, path=path, count=count), timeout=timeout)
        return self.state.journal.requests(method=method, path=path)[count - 1]

    async def wait_request_async(
        self, method: str, path: str, *, count: int = 1, timeout: float = 5
    ) -> RecordedRequest:
        """Await until `count` matching requests arrived -> the count-th one."""
        await self.wait_until_async(
            self._requested(method=method, path=path, count=count), timeout=timeout
        )
        return self.state.journal.requests(method=method, path=path)[count - 1]

    def _answered(self, *, interaction_id: str) -> Callable[[], bool]:
        """Predicate: the app sent a callback for the interaction."""
        return lambda: bool(self.state.interactions.lookup(interaction_id=interaction_id).callbacks)

    def wait_callback(self, interaction_id: str, *, timeout: float = 5) -> JsonDict:
        """Block until the app answered an interaction -> its callback {"type", "data"}."""
        self.wait_until(self._answered(interaction_id=interaction_id), timeout=timeout)
        return self.state.interactions.get(interaction_id=interaction_id).callbacks[0]

    async def wait_callback_async(self, interaction_id: str, *, timeout: float = 5) -> JsonDict:
        """Await until the app answered an interaction -> its callback {"type", "data"}."""
        await self.wait_until_async(self._answered(interaction_id=interaction_id), timeout=timeout)
        return self.state.interactions.get(interaction_id=interaction_id).callbacks[0]

    def wait_resumed(self, *, count: int = 1, timeout: float = 5) -> None:
        """Block until `count` RESUMEs were answered."""
        self.wait_until(lambda: self.gateway.resumes >= count, timeout=timeout)
