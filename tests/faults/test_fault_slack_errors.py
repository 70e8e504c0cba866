"""Slack misbehaving on a share of calls (429 with Retry-After, 500/503, connections dropped
before or after the effect): every daily post and every vote redraw is delivered in the end,
nothing is doubled, nothing crashes. The real bot wiring runs in-process on a FakeClock."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from slack_bolt import BoltRequest

from bot.db.database import Database
from bot.domain import ChannelKey
from bot.services import posting
from bot.slack import ids
from tests.fakeslack import FakeSlack, block_actions_payload
from tests.faults.support import (
    BERLIN_WEEKDAYS,
    MONDAY_9,
    FakeClock,
    LogTrap,
    daily_posts,
    db_posts,
    db_scalar,
    prepare_database,
    scaled,
    seed_for,
    shown_counts,
    slack_settings,
    trap_logs,
    vote_value,
)
from tests.wired import SlackBot, build_slack_bot

KEY_C0001 = ChannelKey(platform="slack", workspace="T0001", channel="C0001")

# (label, fail_next arguments). Retry-After 0 keeps the test fast; slack_sdk adds 0-1 s jitter.
POST_FAULTS: list[tuple[str, dict[str, Any]]] = [
    ("429", {"status": 429, "retry_after": 0}),
    ("500", {"status": 500}),
    ("500 after the effect", {"status": 500, "after_effect": True}),
    ("503", {"status": 503}),
    ("timeout", {"drop": True}),
    ("timeout after the effect", {"drop": True, "after_effect": True}),
]
READ_FAULTS: list[tuple[str, dict[str, Any]]] = [
    ("429", {"status": 429, "retry_after": 0}),
    ("500", {"status": 500}),
    ("503", {"status": 503}),
    ("timeout", {"drop": True}),
]


@dataclass
class Rig:
    """The bot wired as `paperclub run` wires it, on a FakeClock, against the fake."""

    fake: FakeSlack
    bot: SlackBot
    clock: FakeClock
    db: Path
    channels: list[str]

    def sweep(self) -> dict[ChannelKey, posting.PostResult]:
        """The scheduler's sweep at the test's time."""
        return posting.post_due(poster=self.bot.poster, now=self.clock.now())

    def click(self, *, user: str, channel: str, up: bool = True) -> int:
        """A vote button click dispatched through the real Bolt app; the HTTP-like status."""
        [message] = daily_posts(self.fake, channel)
        payload = block_actions_payload(
            ids.VOTE_UP if up else ids.VOTE_DOWN,
            vote_value(message),
            user_id=user,
            channel_id=channel,
            message_ts=str(message["ts"]),
            block_id=ids.VOTE_BLOCK,
        )
        response = self.bot.app.dispatch(BoltRequest(body=payload, mode="socket_mode"))
        return int(response.status)


@pytest.fixture
def rig(fake: FakeSlack, tmp_path: Path) -> Iterator[Rig]:
    """Ten channels following the sample list; the Chat's pause between attempts is skipped."""
    channels = [f"C{n:04d}" for n in range(1, 11)]
    for channel in channels[1:]:
        fake.add_channel(channel, f"club-{channel.lower()}")
    db = tmp_path / "club.db"
    url = prepare_database(db, channels=channels, schedule=BERLIN_WEEKDAYS)
    database = Database(url=url)
    clock = FakeClock(MONDAY_9)
    bot = build_slack_bot(
        settings=slack_settings(fake, url), database=database, clock=clock, mode="socket"
    )
    # SlackChat waits 1 s, 2 s between post attempts; the FakeClock test does not need to.
    bot.chat.sleep = lambda _seconds: None
    try:
        yield Rig(fake=fake, bot=bot, clock=clock, db=db, channels=channels)
    finally:
        bot.close()
        database.dispose()


def _assert_one_post_each(rig: Rig) -> None:
    """Every channel: one message with our metadata in Slack, one posted row with its ts."""
    rows = db_posts(rig.db)
    for channel in rig.channels:
        messages = daily_posts(rig.fake, channel)
        mine = [r for r in rows if r["channel"] == channel]
        assert len(messages) == 1, f"{channel}: {len(messages)} daily posts in Slack"
        assert [(r["state"], r["ts"]) for r in mine] == [("posted", messages[0]["ts"])], mine
    posted = db_scalar(rig.db, "SELECT count(*) FROM papers WHERE status = 'posted'")
    assert posted == len(rows), "a paper left the queue without a post, or came back after one"


class FaultFeeder:
    """Fails about `share` of a method's calls: after a clean call it may queue a run of
    1..max_run faults for the next ones, then waits until they were all answered and a clean
    answer followed (the retry got through) before deciding again."""

    def __init__(
        self,
        fake: FakeSlack,
        method: str,
        rng: random.Random,
        *,
        share: float,
        faults: list[tuple[str, dict[str, Any]]],
        max_run: int = 1,
    ) -> None:
        """Start watching the fake's call log in a thread."""
        self.fake, self.method, self.rng = fake, method, rng
        self.share, self.faults, self.max_run = share, faults, max_run
        self.injected: list[str] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="fault-feeder", daemon=True)
        self._thread.start()

    def _calls(self) -> tuple[int, int, bool]:
        """Calls answered so far, how many with a fault, and whether the last one was clean."""
        calls = self.fake.requests(self.method)
        bad = sum(c.status != 200 for c in calls)
        return len(calls), bad, bool(calls) and calls[-1].status == 200

    def _settled(self, bad_wanted: int) -> bool:
        _, bad, last_clean = self._calls()
        return bad >= bad_wanted and last_clean

    def _run(self) -> None:
        seen, bad, _ = self._calls()
        while not self._stop.is_set():
            now, bad, last_clean = self._calls()
            if now == seen or not last_clean:
                time.sleep(0.002)
                continue
            seen = now
            if self.rng.random() >= self.share:
                continue
            run = self.rng.randint(1, self.max_run)
            for _ in range(run):
                label, kwargs = self.rng.choice(self.faults)
                self.fake.fail_next(self.method, **kwargs)
                self.injected.append(label)
            while not self._stop.is_set() and not self._settled(bad + run):
                time.sleep(0.002)
            seen = self._calls()[0]

    def stop(self) -> None:
        """Stop injecting and drop what was queued and not used."""
        self._stop.set()
        self._thread.join(timeout=5)
        with self.fake.ws.lock:
            self.fake.ws._failures.pop(self.method, None)


def test_daily_posts_survive_rate_limits_server_errors_and_timeouts(rig: Rig) -> None:
    rng = random.Random(seed_for("slack errors: posting"))
    log: list[str] = []
    # The first channel's three attempts all fail without an effect: its post stays pending
    # (the outcome is unknown) and is resolved after the lease, by looking in history first.
    for kwargs in ({"drop": True}, {"status": 500}, {"status": 503}):
        rig.fake.fail_next("chat.postMessage", **kwargs)
    # Then about a third of the calls fail, in runs that may outlast one call's retries.
    feeders = [
        FaultFeeder(rig.fake, "chat.postMessage", rng, share=0.35, faults=POST_FAULTS, max_run=3),
        FaultFeeder(
            rig.fake, "conversations.history", rng, share=0.3, faults=READ_FAULTS, max_run=2
        ),
        FaultFeeder(rig.fake, "chat.getPermalink", rng, share=0.2, faults=READ_FAULTS),
    ]
    with trap_logs() as trap:
        try:
            for round_no in range(12):
                if round_no == 6:  # Slack recovers: the last rounds run clean
                    for feeder in feeders:
                        feeder.stop()
                outcomes = rig.sweep()
                if round_no == 0:
                    assert outcomes[KEY_C0001].outcome is posting.Outcome.FAILED
                log.append(
                    f"round {round_no}: {sorted(r.outcome.value for r in outcomes.values())}"
                )
                rows = db_posts(rig.db)
                if len(rows) == len(rig.channels) and all(r["state"] == "posted" for r in rows):
                    break
                # Past the two-minute lease: a post whose outcome stayed unknown is resolved now.
                rig.clock.at += posting.LEASE + timedelta(minutes=1)
        finally:
            for feeder in feeders:
                feeder.stop()
        # One more sweep later that day changes nothing.
        rig.clock.at += timedelta(hours=1)
        assert {r.outcome for r in rig.sweep().values()} == {posting.Outcome.ALREADY}
    injected = {f.method: f.injected for f in feeders}
    print("\n".join(log), f"\nfaults injected: {injected}")
    assert sum(map(len, injected.values())) >= 3, "too few faults to prove anything"
    _assert_one_post_each(rig)
    assert not trap.tracebacks(), trap.tracebacks()


def _counts_match(rig: Rig, trap: LogTrap) -> None:
    """Each post shows, after the last redraw, the counts the database holds."""
    assert rig.bot.coalescer.drain(timeout=30), "redraws still pending after 30 s"
    for row in db_posts(rig.db):
        up = db_scalar(rig.db, "SELECT count(*) FROM votes WHERE post_id=? AND value>0", row["id"])
        down = db_scalar(
            rig.db, "SELECT count(*) FROM votes WHERE post_id=? AND value<0", row["id"]
        )
        message = rig.fake.message(row["channel"], row["ts"])
        assert shown_counts(message) == (f"👍 {up}", f"👎 {down}"), (row["channel"], trap.errors())


def test_vote_redraws_survive_a_share_of_failed_chat_updates(rig: Rig) -> None:
    rng = random.Random(seed_for("slack errors: chat.update"))
    rig.sweep()
    channels = rig.channels[:3]
    users = [f"U{n:04d}" for n in range(40)]
    bursts = scaled(4, 12)
    with trap_logs() as trap:
        feeder = FaultFeeder(rig.fake, "chat.update", rng, share=0.3, faults=READ_FAULTS)
        try:
            for _ in range(bursts):
                for _ in range(rng.randint(20, 60)):
                    channel = rng.choice(channels)
                    status = rig.click(
                        user=rng.choice(users), channel=channel, up=rng.random() < 0.6
                    )
                    assert status == 200
                _counts_match(rig, trap)
        finally:
            feeder.stop()
    print(f"chat.update faults injected: {feeder.injected}")
    assert feeder.injected, "the feeder injected nothing; the test proved nothing"
    assert not trap.tracebacks(), trap.tracebacks()


def test_a_redraw_that_fails_past_the_retries_is_tried_again(rig: Rig) -> None:
    rig.sweep()
    assert rig.click(user="U0100", channel="C0001") == 200
    assert rig.bot.coalescer.drain(timeout=30)
    # Slack is down for one redraw and its two retries, then answers again.
    rig.fake.fail_next("chat.update", status=500, times=3)
    assert rig.click(user="U0101", channel="C0001") == 200
    with trap_logs() as trap:
        # Once Slack answers again, the redraw must follow (a few coalescing intervals).
        deadline = time.monotonic() + 4
        while time.monotonic() < deadline:
            message = rig.fake.message("C0001", daily_posts(rig.fake, "C0001")[0]["ts"])
            if shown_counts(message) == ("👍 2", "👎 0"):
                break
            time.sleep(0.05)
        _counts_match(rig, trap)


def _second_sweep_posts_nothing_more(rig: Rig) -> None:
    """Later sweeps that day (past the lease) must find or keep the one post."""
    for _ in range(2):
        rig.clock.at += posting.LEASE + timedelta(minutes=1)
        rig.sweep()
    messages = daily_posts(rig.fake, "C0001")
    assert len(messages) == 1, f"{len(messages)} daily posts in C0001 on one day"


@pytest.mark.parametrize("code", ["internal_error", "fatal_error"])
def test_internal_error_after_the_message_landed_is_not_posted_again(rig: Rig, code: str) -> None:
    # Slack's docs on both codes: "It's possible some aspect of the operation succeeded".
    rig.fake.fail_next("chat.postMessage", error=code, after_effect=True)
    rig.sweep()
    _second_sweep_posts_nothing_more(rig)


def test_rate_limited_history_check_after_a_500_does_not_double_the_post(rig: Rig) -> None:
    rig.fake.fail_next("chat.postMessage", status=500, after_effect=True)
    # The check in history is rate-limited past slack_sdk's five retries.
    rig.fake.fail_next("conversations.history", status=429, retry_after=0, times=6)
    rig.sweep()
    _second_sweep_posts_nothing_more(rig)
