"""Sessions' reminders (issue 33) across a kill -9 and with two replicas: each sent once.

Real `paperclub run` processes post to FakeSlack on the real clock, so the meeting is set
around now: sessions starting in 20 and 25 minutes (UTC wall times) with one reminder half an
hour ahead, due at a process's first sweep. The channel has a meeting and nothing else (a
watch-only row): the only chat.postMessage calls are reminders.

(a) A process is killed after Slack took a reminder and before it was noted (the test holds
SQLite's write lock while the post is in flight, then kills); a later one is set meanwhile.
The restart finds the first in the channel's history (never sent twice) and sends the later
one once; a third start sends nothing more.
(b) Two replicas on PostgreSQL, the leader killed at a random instant of its first second:
each reminder exactly once. And two processes' sweeps at one instant (in-process, threads on
one PostgreSQL database, both believing the other alive): each reminder once.
"""

from __future__ import annotations

import contextlib
import random
import sqlite3
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.db.database import Database
from bot.domain import ChannelKey
from bot.meetings.meeting import Meeting, OneOff
from bot.meetings.reminders import Before
from tests.fakeslack import FakeSlack
from tests.faults.sessions_support import (
    CAUGHT_UP,
    START_DEADLINE,
    leader_killed_at_random,
    sweep_in_pairs,
)
from tests.faults.support import (
    Processes,
    bot_env,
    clear_faults,
    integrity,
    prepare_database,
    read_only,
    seed_for,
    wait_until,
)
from tests.services.memory_chat import MemoryChat

KEY = ChannelKey(platform="slack", workspace="T0001", channel="C0001")
HALF_HOUR = (Before(minutes=30),)


def _minute_after(at: datetime) -> datetime:
    """The first whole minute after `at` (a meeting's wall time has no seconds)."""
    return at.replace(second=0, microsecond=0) + timedelta(minutes=1)


def _set_meeting(*, url: str, now: datetime) -> datetime:
    """A weekly meeting in UTC whose first session starts within 21 minutes of `now`, with a
    reminder half an hour ahead (due at once); the session's start."""
    start = _minute_after(now + timedelta(minutes=20))
    meeting = Meeting(
        weekday=start.isoweekday(),
        start=start.time(),
        zone="UTC",
        first_date=start.date(),
        duration=timedelta(hours=1),
        place="Room 2 <!channel>",
    )
    database = Database(url=url)
    try:
        with database() as store:
            store.save_meeting(channel=KEY, meeting=meeting, reminders=HALF_HOUR, now=now)
    finally:
        database.dispose()
    return start


def _add_one_off(*, url: str, at: datetime) -> None:
    """A one-off session at `at` (UTC, a whole minute)."""
    database = Database(url=url)
    try:
        with database() as store:
            store.add_change(channel=KEY, change=OneOff(day=at.date(), at=at.time()))
    finally:
        database.dispose()


def _reminders(fake: FakeSlack) -> list[dict[str, Any]]:
    """The messages in C0001 with RSVP buttons."""
    return [
        m
        for m in fake.messages("C0001")
        if any(
            str(e.get("action_id", "")).endswith("rsvp_going")
            for b in m.get("blocks") or []
            if b.get("type") == "actions"
            for e in b["elements"]
        )
    ]


def _notices(db: Path) -> list[tuple[int, str | None]]:
    """Every notice row: its session and message id."""
    with read_only(db) as conn:
        rows = conn.execute("SELECT session_id, message_id FROM meeting_notices ORDER BY id")
        return [(int(r[0]), r[1]) for r in rows.fetchall()]


def _in_flight(fake: FakeSlack, method: str) -> bool:
    """Whether the delay queued for `method` was taken: its call reached the fake and is held."""
    with fake.ws.lock:
        return not fake.ws._delays.get(method)


@contextlib.contextmanager
def _write_lock(db: Path) -> Iterator[None]:
    """Hold SQLite's write lock: the bot's next write waits (its busy timeout is ten seconds)."""
    conn = sqlite3.connect(db, isolation_level=None, timeout=10)
    try:
        conn.execute("BEGIN IMMEDIATE")
        yield
        conn.execute("ROLLBACK")
    finally:
        conn.close()


@pytest.mark.timeout(60)
def test_kill_9_between_the_reminder_and_its_note_never_sends_it_twice(
    tmp_path: Path, processes: Processes
) -> None:
    db = tmp_path / "club.db"
    url = prepare_database(db, channels=())
    first_start = _set_meeting(url=url, now=datetime.now(UTC))
    with FakeSlack(ts_base=int(time.time())) as fake:
        fake.add_channel("C0001", "club")
        env = bot_env(fake, db, extra={"PAPERCLUB_CHANNEL": ""})
        fake.delay_next("chat.postMessage", 1.0)  # time to take the lock while it is in flight
        first = processes.start(env=env, cwd=tmp_path, name="first")

        def in_flight() -> bool:
            first.check_running()
            return bool(_notices(db)) and _in_flight(fake, "chat.postMessage")

        wait_until(in_flight, timeout=START_DEADLINE, what="the reminder in flight")
        with _write_lock(db):  # Slack answers; the note waits
            wait_until(lambda: _reminders(fake), timeout=10, what="the reminder in Slack")
            first.kill9()
        assert _notices(db) == [(1, None)]  # opened, claimed, never noted
        clear_faults(fake)
        # Meanwhile an admin adds a one-off five minutes after the first session: its reminder
        # falls due too.
        _add_one_off(url=url, at=first_start + timedelta(minutes=5))

        restart = processes.start(env=env, cwd=tmp_path, name="restart")

        def both_noted() -> bool:
            restart.check_running()
            noted = _notices(db)
            return len(noted) == 2 and all(m is not None for _, m in noted)

        wait_until(both_noted, timeout=START_DEADLINE, what="the restart's reminders")
        restart.kill9()
        again = processes.start(env=env, cwd=tmp_path, name="again")
        wait_until(lambda: CAUGHT_UP in again.stderr(), timeout=START_DEADLINE, what="a sweep")
        again.kill9()

        shown = _reminders(fake)
        assert len(shown) == 2, [m.get("text") for m in shown]
        noted = _notices(db)
        assert [m for _, m in noted] == [m["ts"] for m in shown]  # the first found, not resent
        assert "already; noted it" in restart.stderr()
        for process in (restart, again):
            assert "Traceback" not in process.stderr(), process.stderr()[-3000:]
        assert integrity(db) == "ok"


# -- two replicas on PostgreSQL ---------------------------------------------------------------


@pytest.mark.postgres
@pytest.mark.timeout(60)
def test_two_replicas_send_each_reminder_once_when_the_leader_is_killed(
    postgres_url: str, processes: Processes, tmp_path: Path
) -> None:
    rng = random.Random(seed_for("meeting replicas"))
    start = _set_meeting(url=postgres_url, now=datetime.now(UTC))
    _add_one_off(url=postgres_url, at=start + timedelta(minutes=5))
    with FakeSlack(ts_base=int(time.time())) as fake:
        fake.add_channel("C0001", "club")
        pair, standby = leader_killed_at_random(
            fake=fake, url=postgres_url, processes=processes, folder=tmp_path, rng=rng
        )
        shown = _reminders(fake)
        logs = "\n\n".join(f"== {p.name}\n{p.stderr()[-3000:]}" for p in pair)
        assert len(shown) == 2, logs
        assert "Traceback" not in standby.stderr(), logs


@pytest.mark.postgres
def test_two_sweeps_at_one_instant_send_each_reminder_once(postgres_url: str) -> None:
    now = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
    start = _set_meeting(url=postgres_url, now=now)
    _add_one_off(url=postgres_url, at=start + timedelta(minutes=5))
    chat = MemoryChat()
    sent = sweep_in_pairs(url=postgres_url, chat=chat, now=now)
    assert sum(sent) == 2, sent
    assert len(chat.messages["C0001"]) == 2
