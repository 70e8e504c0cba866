"""Fixtures of the fault tests: processes that are always killed, a running fake Slack, and
the `slow` switch (PAPERCLUB_SLOW=1 runs the long variants)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.fakeslack import FakeSlack
from tests.faults.support import ADMIN, MEMBER, MONDAY_9, SLOW, Processes


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Skip the long variants unless PAPERCLUB_SLOW=1."""
    if item.get_closest_marker("slow") is not None and not SLOW:
        pytest.skip("long variant: set PAPERCLUB_SLOW=1 to run it")


@pytest.fixture
def processes() -> Iterator[Processes]:
    """Start `paperclub run` through this; every process is SIGKILLed and reaped at the end."""
    started = Processes()
    try:
        yield started
    finally:
        started.kill_all()


@pytest.fixture
def fake() -> Iterator[FakeSlack]:
    """A fake workspace whose message timestamps sit just before the tests' Monday 09:00."""
    with FakeSlack(ts_base=int(MONDAY_9.timestamp()) - 86_400) as slack:
        slack.add_channel("C0001", "general")
        slack.add_user(ADMIN, "ana", is_admin=True)
        slack.add_user(MEMBER, "bo")
        yield slack
