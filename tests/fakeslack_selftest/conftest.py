"""Fixtures for the fake's own tests: a running FakeSlack, Bolt apps, and a thread-leak guard."""

from __future__ import annotations

import gc
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from slack_bolt import App

from tests.fakeslack import FakeSlack

SIGNING_SECRET = "fake-signing-secret"


@pytest.fixture(autouse=True)
def no_thread_leaks() -> Iterator[None]:
    """Every thread a test starts must be gone shortly after it ends."""
    before = set(threading.enumerate())
    yield
    deadline = time.monotonic() + 2
    while True:
        extra = [t for t in threading.enumerate() if t not in before and t.is_alive()]
        if not extra or time.monotonic() > deadline:
            break
        time.sleep(0.02)
    # Collect now so a ResourceWarning (unclosed socket) is blamed on this test.
    gc.collect()
    assert not extra, f"threads left running: {extra}"


@pytest.fixture
def fake() -> Iterator[FakeSlack]:
    """A started FakeSlack with #general (C0001, bot is a member) and two people."""
    with FakeSlack() as f:
        f.add_channel("C0001", "general")
        f.add_user("U0001", "alice", real_name="Alice A", display_name="alice")
        f.add_user("U0002", "bob", is_admin=True)
        yield f


@pytest.fixture
def signing_secret() -> str:
    """The signing secret make_app() gives its apps."""
    return SIGNING_SECRET


@pytest.fixture
def make_app(fake: FakeSlack) -> Iterator[Callable[..., App]]:
    """Build real Bolt Apps talking to the fake; their worker threads are shut down after."""
    executors: list[ThreadPoolExecutor] = []

    def build(**kwargs: Any) -> App:
        executor = ThreadPoolExecutor(max_workers=4, thread_name_prefix="bolt-listener")
        executors.append(executor)
        kwargs.setdefault("signing_secret", SIGNING_SECRET)
        # Bolt never shuts its default executor down; passing ours lets the test do it.
        return App(client=fake.client(), listener_executor=executor, **kwargs)

    yield build
    for executor in executors:
        executor.shutdown(wait=True)
