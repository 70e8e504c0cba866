"""Replicas on PostgreSQL: one leader through an advisory lock held on its own connection, taken
over when the database ends the leader's session; and one replay guard for signed requests
that every replica shares."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from datetime import time as datetime_time

import pytest
from sqlalchemy import create_engine, text

from bot.db.seen_requests import WINDOW_SECONDS, SharedSeenRequests
from bot.runtime.health import Heartbeat
from bot.runtime.leader import LEADER_LOCK_KEY, STEP_DOWN_AFTER_SECONDS, Leadership
from tests.faults.support import wait_until

pytestmark = pytest.mark.postgres
INTERVAL = 0.05


class Replica:
    """A Leadership with events for its callbacks, as the wiring would hold it."""

    def __init__(self, *, url: str) -> None:
        """Not started."""
        self.led, self.lost = threading.Event(), threading.Event()
        self.heartbeat = Heartbeat()
        self.leadership = Leadership(
            url=url,
            on_lead=self.led.set,
            on_lose=self.lost.set,
            heartbeat=self.heartbeat,
            interval=INTERVAL,
        )

    def last_beat(self) -> float:
        """The monotonic instant of its last heartbeat (standbys beat on every try)."""
        _, age = self.heartbeat.read()
        return -1.0 if age is None else time.monotonic() - age


@pytest.fixture
def replicas(postgres_url: str) -> Iterator[list[Replica]]:
    """Two replicas on one database, closed at the end."""
    pair = [Replica(url=postgres_url), Replica(url=postgres_url)]
    try:
        yield pair
    finally:
        for replica in pair:
            replica.leadership.close()


def _holder_pid(*, url: str) -> int | None:
    """The backend pid holding the leader lock, as PostgreSQL sees it."""
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            return connection.execute(
                text(
                    "SELECT pid FROM pg_locks"
                    " WHERE locktype = 'advisory' AND objid = :k AND granted"
                ),
                {"k": LEADER_LOCK_KEY},
            ).scalar()
    finally:
        engine.dispose()


def test_one_leads_and_the_other_takes_over_when_its_session_ends(
    replicas: list[Replica], postgres_url: str
) -> None:
    for replica in replicas:
        replica.leadership.start()
    wait_until(lambda: any(r.led.is_set() for r in replicas), timeout=10, what="a leader")
    (leader,) = [r for r in replicas if r.led.is_set()]
    (standby,) = [r for r in replicas if r is not leader]
    led_at = time.monotonic()
    # The standby asked again after the lock was taken, and was refused.
    wait_until(lambda: standby.last_beat() > led_at, timeout=10, what="the standby's next try")
    assert not standby.led.is_set() and leader.leadership.leading
    pid = _holder_pid(url=postgres_url)
    assert pid is not None

    # The database ends the leader's session, as it does when the leader's process dies.
    admin = create_engine(postgres_url, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            connection.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
    finally:
        admin.dispose()
    wait_until(standby.led.is_set, timeout=10, what="the takeover")
    wait_until(leader.lost.is_set, timeout=10, what="the old leader noticing")
    assert standby.leadership.leading and not leader.leadership.leading
    assert _holder_pid(url=postgres_url) not in (None, pid)


def test_closing_the_leader_frees_the_lock_at_once(replicas: list[Replica]) -> None:
    first, second = replicas
    first.leadership.start()
    wait_until(first.led.is_set, timeout=10, what="the first leading")
    second.leadership.start()
    first.leadership.close()
    wait_until(second.led.is_set, timeout=10, what="the second leading")


def test_a_replay_refused_by_one_replica_is_refused_by_all(postgres_url: str) -> None:
    engines = [create_engine(postgres_url), create_engine(postgres_url)]
    try:
        one, other = (SharedSeenRequests(engine=engine) for engine in engines)
        now = time.time()
        assert one.first_time(signature="v0=abc", now=now)
        assert not other.first_time(signature="v0=abc", now=now + 1)
        assert not one.first_time(signature="v0=abc", now=now + 2)
        assert other.first_time(signature="v0=def", now=now + 3)
        # Past the window the signature is stale anyway (the timestamp check refuses it first).
        assert other.first_time(signature="v0=abc", now=now + WINDOW_SECONDS + 1)
    finally:
        for engine in engines:
            engine.dispose()


def test_a_leader_whose_scheduler_stopped_beating_steps_down(postgres_url: str) -> None:
    # The leader's heartbeat on a clock the test moves: past the limit, its scheduler is stuck.
    now = [1000.0]
    stuck = Replica(url=postgres_url)
    stuck.heartbeat = Heartbeat(clock=lambda: now[0])
    stuck.leadership = Leadership(
        url=postgres_url,
        on_lead=stuck.led.set,
        on_lose=stuck.lost.set,
        heartbeat=stuck.heartbeat,
        interval=INTERVAL,
    )
    other = Replica(url=postgres_url)
    try:
        stuck.leadership.start()
        wait_until(stuck.led.is_set, timeout=10, what="the first leading")
        other.leadership.start()
        now[0] += STEP_DOWN_AFTER_SECONDS + 1
        wait_until(stuck.lost.is_set, timeout=10, what="the stuck leader stepping down")
        wait_until(other.led.is_set, timeout=10, what="the other leading")
    finally:
        stuck.leadership.close()
        other.leadership.close()


def test_replicas_starting_together_both_follow_the_channel(postgres_url: str) -> None:
    # Each replica follows PAPERCLUB_CHANNEL at start; the second insert waits for the first
    # one's commit and finds the row, instead of failing the start on the unique key.
    from bot.db.database import Database
    from bot.domain import ChannelKey, Schedule

    key = ChannelKey(platform="slack", workspace="T0001", channel="C0001")
    schedule = Schedule(post_time=datetime_time(9, 0), timezone="UTC", weekdays=frozenset({1}))
    first, second = Database(url=postgres_url), Database(url=postgres_url)
    inserted, release = threading.Event(), threading.Event()
    ids: list[int] = []

    def hold_open() -> None:
        with first() as store:
            ids.append(store.add_channel_if_missing(key=key, schedule=schedule, private=False).id)
            inserted.set()
            release.wait(10)

    holder = threading.Thread(target=hold_open)
    holder.start()
    try:
        assert inserted.wait(10)
        threading.Timer(0.3, release.set).start()  # commit while the second insert waits
        with second() as store:
            ids.append(store.add_channel_if_missing(key=key, schedule=schedule, private=False).id)
    finally:
        release.set()
        holder.join(10)
        first.dispose()
        second.dispose()
    assert len(ids) == 2 and ids[0] == ids[1]
