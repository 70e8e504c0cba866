"""Every Socket Mode session that opens asks for a read-back, the first of the process
included: events sent while none was open may be lost, and the ask is stamped with the moment
events flow again."""

from __future__ import annotations

import threading
from dataclasses import replace

from bot.config.settings import Settings
from bot.db.database import Database
from bot.slack import single
from tests.fakeslack import FakeSlack
from tests.slack.conftest import MONDAY_9, FakeClock
from tests.wired import build_slack_bot


def test_every_session_that_opens_asks_for_a_reconcile(
    fake: FakeSlack, settings: Settings, sqlite_url: str
) -> None:
    database = Database(url=sqlite_url)
    wired = build_slack_bot(
        settings=settings, database=database, clock=FakeClock(MONDAY_9), mode="socket"
    )
    asked: list[str] = []
    heard = threading.Condition()

    def wants_reconcile(platform: str) -> None:
        with heard:
            asked.append(platform)
            heard.notify_all()

    def asked_times(n: int) -> bool:
        with heard:
            return heard.wait_for(lambda: len(asked) >= n, timeout=5)

    club = replace(wired.wiring.club, wants_reconcile=wants_reconcile)
    platform = single.build(settings=settings, club=club, mode="socket")
    stop = threading.Event()
    serving = threading.Thread(target=platform.serve, kwargs={"stop": stop})
    serving.start()
    try:
        fake.wait_connected(total=1)
        assert asked_times(1)
        fake.disconnect_all()  # Slack's refresh_requested: a new session opens
        fake.wait_connected(total=2)
        assert asked_times(2)
        fake.socket_mode.drop_all()  # a dropped link: the client reconnects itself
        fake.wait_connected(total=3)
        assert asked_times(3)
    finally:
        stop.set()
        serving.join(10)
        platform.close()
        wired.close()
        database.dispose()
    assert not serving.is_alive()
    assert asked == ["slack", "slack", "slack"]
