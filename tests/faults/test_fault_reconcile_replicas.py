"""Issue 31 with two real `paperclub run` replicas on one PostgreSQL database (skipped without
one): the leader reads each post back once, never twice; a replica that joins later, beside
one that ran all along, asks for no second read."""

from __future__ import annotations

import time
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import text

from bot.db.database import Database
from bot.domain import ChannelKey
from bot.services import listing, reconcile_admin
from tests.fakeslack import FakeSlack
from tests.faults.support import (
    UTC_DAILY,
    BotProcess,
    Processes,
    bot_env,
    daily_posts,
    wait_until,
)
from tests.services.conftest import load_sample

pytestmark = pytest.mark.postgres

KEY = ChannelKey(platform="slack", workspace="T0001", channel="C0001")

CHANNELS = ("C0001", "C0002", "C0003")
LEADING = "leading: this replica runs the scheduler"


def _read_back(url: str, after: datetime) -> bool:
    """Every channel's run asked at or after `after` has finished."""
    database = Database(url=url)
    try:
        statuses = reconcile_admin.statuses(uow=database, channels=None)
    finally:
        database.dispose()
    return len(statuses) == len(CHANNELS) and all(
        s.wanted_at is not None
        and s.wanted_at >= after
        and s.finished_at is not None
        and s.finished_at >= after
        and not s.running
        for s in statuses
    )


def _read_again(url: str) -> list[int]:
    """The posts an ask wants read once more (read back before the channel's latest ask)."""
    database = Database(url=url)
    try:
        with database.engine.connect() as conn:
            rows = conn.execute(
                text(
                    "SELECT p.id FROM posts p "
                    "JOIN reconciliations r ON r.channel_id = p.channel_id "
                    "WHERE p.reconciled_at IS NULL OR p.reconciled_at < r.wanted_at ORDER BY p.id"
                )
            )
            return [int(r[0]) for r in rows]
    finally:
        database.dispose()


def _followed(url: str) -> None:
    """The sample list, and the channels following it (each due at once)."""
    database = Database(url=url)
    try:
        load_sample(database)
        with database() as store:
            for channel in CHANNELS:
                key = ChannelKey(platform="slack", workspace="T0001", channel=channel)
                store.save_channel(key=key, schedule=UTC_DAILY, private=False)
    finally:
        database.dispose()


def _posted_then_missed(
    fake: FakeSlack, env: dict[str, str], cwd: Path, processes: Processes
) -> dict[str, str]:
    """One process posts in every channel and stops cleanly; then a vote and a reply in each
    go unheard. Channel -> the post's ts."""
    for channel in CHANNELS:
        fake.add_channel(channel, f"club-{channel}")
    fake.add_user("U0R1", "reader")
    first = processes.start(env=env, cwd=cwd, name="first")

    def posted() -> bool:
        first.check_running()
        return all(daily_posts(fake, c) for c in CHANNELS)

    wait_until(posted, timeout=60, what="the first process's posts")
    posts = {c: str(daily_posts(fake, c)[0]["ts"]) for c in CHANNELS}
    assert first.terminate() == 0, first.stderr()[-3000:]
    for channel, ts in posts.items():
        reacted = fake.people.react("U0R1", channel, ts, "+1")
        assert reacted is not None and reacted.via is None
        assert fake.people.reply("U0R1", channel, ts, f"unheard in {channel}").via is None
    return posts


def _leading(pair: list[BotProcess]) -> bool:
    """Both run and one leads."""
    for process in pair:
        process.check_running()
    return any(LEADING in p.stderr() for p in pair)


@pytest.mark.postgres
@pytest.mark.timeout(120)
def test_two_replicas_started_together_read_each_post_back_once(
    postgres_url: str, tmp_path: Path, processes: Processes
) -> None:
    _followed(postgres_url)
    with FakeSlack(ts_base=int(time.time())) as fake:
        env = bot_env(fake, tmp_path / "unused.db", extra={"PAPERCLUB_DATABASE_URL": postgres_url})
        posts = _posted_then_missed(fake, env, tmp_path, processes)
        before = {ts: _reads_of(fake, ts) for ts in posts.values()}
        started = datetime.now(UTC)
        pair = [processes.start(env=env, cwd=tmp_path, name=f"replica-{s}") for s in "ab"]
        wait_until(lambda: _leading(pair), timeout=60, what="a leader")
        fake.wait_connected(timeout=30, total=3)  # both replicas' sessions are open
        wait_until(lambda: _read_back(postgres_url, started), timeout=30, what="the read-back")
        for process in pair:
            assert process.terminate() == 0, process.stderr()[-3000:]
        reads = {ts: _reads_of(fake, ts) - before[ts] for ts in posts.values()}
        assert reads == dict.fromkeys(posts.values(), 1), reads
        assert len(fake.requests("conversations.replies")) >= len(CHANNELS)
        database = Database(url=postgres_url)
        try:
            records = listing.records(uow=database, workspace=KEY.workspace_key)
        finally:
            database.dispose()
        texts = sorted(c.text for r in records for p in r.posts for c in p.comments)
        assert texts == sorted(f"unheard in {c}" for c in CHANNELS)
        assert sum(p.votes.up for r in records for p in r.posts) == len(CHANNELS)


@pytest.mark.postgres
@pytest.mark.timeout(120)
def test_a_replica_joining_later_asks_no_second_read(
    postgres_url: str, tmp_path: Path, processes: Processes
) -> None:
    _followed(postgres_url)
    with FakeSlack(ts_base=int(time.time())) as fake:
        env = bot_env(fake, tmp_path / "unused.db", extra={"PAPERCLUB_DATABASE_URL": postgres_url})
        _posted_then_missed(fake, env, tmp_path, processes)
        started = datetime.now(UTC)
        leader = processes.start(env=env, cwd=tmp_path, name="leader")
        wait_until(lambda: _leading([leader]), timeout=60, what="the leader")
        wait_until(lambda: _read_back(postgres_url, started), timeout=30, what="the read-back")
        assert _read_again(postgres_url) == []
        joined = datetime.now(UTC)
        second = processes.start(env=env, cwd=tmp_path, name="second")
        fake.wait_connected(timeout=30, total=3)  # its session open beside the leader's

        def asked() -> bool:
            second.check_running()
            database = Database(url=postgres_url)
            try:
                statuses = reconcile_admin.statuses(uow=database, channels=None)
            finally:
                database.dispose()
            return all(s.wanted_at is not None and s.wanted_at >= joined for s in statuses)

        # Its session is open: whatever it would ask, it has asked by the time it says so.
        wait_until(
            lambda: "another replica was running all along" in second.stderr(),
            timeout=30,
            what="the second replica's word that nothing needs reading back",
        )
        assert not asked()
        assert _read_again(postgres_url) == [], "a second read of every post is pending"


def _reads_of(fake: FakeSlack, ts: str) -> int:
    """reactions.get calls answered for the post of `ts`."""
    return sum(1 for c in fake.requests("reactions.get") if c.params.get("timestamp") == ts)
