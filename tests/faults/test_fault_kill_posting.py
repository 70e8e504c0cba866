"""kill -9 of a real `paperclub run` at random instants around the daily post, then a restart:
exactly one post per channel per day, the restart does not wait out the lease of a dead
owner, and the SQLite file stays sound. Also: two processes on one database at post time.

Each run has its own FakeSlack and SQLite file; runs go two at a time (the time is mostly
process start-up, which is CPU-bound). The seed is printed; PAPERCLUB_FAULT_SEED=N replays one.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import time as clock_time
from pathlib import Path

import pytest

from bot.db.database import Database
from bot.runtime.clock import SystemClock
from bot.services import posting
from tests.fakeslack import FakeSlack
from tests.faults.support import (
    BotProcess,
    Processes,
    bot_env,
    clear_faults,
    daily_posts,
    db_posts,
    db_scalar,
    integrity,
    prepare_database,
    scaled,
    seed_for,
    slack_settings,
    wait_until,
)
from tests.wired import build_slack_bot

WORKERS = 2
# A restart must post at once: its first sweep runs at start. The lease (two minutes) and the
# next sweep (one minute) are both far beyond this.
RESTART_DEADLINE = 25.0

# scenario -> what it does before the kill
SCENARIOS = {
    "before the intent": "kill 0.2-1.0 s after start, while the process is starting",
    "at a random instant": "kill 0.8-3.5 s after start, whatever it is doing",
    "right after the intent": "chat.postMessage held 0.3 s: kill once the pending row is in",
    "intent, post in flight": "chat.postMessage is held, then dropped: kill while it waits",
    "posted, commit pending": "chat.getPermalink is held: the message is in Slack, not in the DB",
    "500 after the post": "chat.postMessage lands and answers 500: kill during the history check",
    "timeout after the post": "chat.postMessage lands, connection dropped: kill during the check",
}


@dataclass(frozen=True)
class KillPlan:
    """One randomised run."""

    n: int
    scenario: str
    channels: tuple[str, ...]
    pause: float
    second_kill: float | None  # also kill the first restart this long after its start

    def describe(self) -> str:
        """One line for the log."""
        twice = f", restart killed after {self.second_kill:.2f}s" if self.second_kill else ""
        return (
            f"run {self.n:02d} [{self.scenario}] channels={len(self.channels)} "
            f"pause={self.pause:.3f}s{twice}"
        )


def plan_runs(rng: random.Random, count: int) -> list[KillPlan]:
    """Every scenario at least once, then random ones; some runs with two channels."""
    names = list(SCENARIOS)
    rng.shuffle(names)
    plans = []
    for n in range(count):
        scenario = names[n] if n < len(names) else rng.choice(list(SCENARIOS))
        channels = ("C0001", "C0002") if rng.random() < 0.4 else ("C0001",)
        pause = {
            "before the intent": rng.uniform(0.2, 1.0),
            "at a random instant": rng.uniform(0.8, 3.5),
            "right after the intent": rng.uniform(0.0, 0.05),
            "intent, post in flight": rng.uniform(0.0, 0.3),
            "posted, commit pending": rng.uniform(0.0, 0.1),
        }.get(scenario, rng.uniform(0.0, 1.3))
        second = rng.uniform(0.3, 2.2) if rng.random() < 0.15 else None
        plans.append(KillPlan(n, scenario, channels, pause, second))
    return plans


def _pending_or_posted(db: Path) -> bool:
    return bool(db_scalar(db, "SELECT count(*) FROM posts"))


def _all_posted(db: Path, channels: tuple[str, ...]) -> bool:
    rows = db_posts(db)
    done = {r["channel"] for r in rows if r["state"] == "posted"}
    return done >= set(channels) and all(r["state"] == "posted" for r in rows)


def _arm(fake: FakeSlack, scenario: str) -> None:
    """Faults for the first process only."""
    if scenario == "right after the intent":
        fake.delay_next("chat.postMessage", 0.3)  # it lands after the process died
    elif scenario == "intent, post in flight":
        fake.delay_next("chat.postMessage", 30)
        fake.fail_next("chat.postMessage", drop=True)  # held, then lost: nothing lands
    elif scenario == "posted, commit pending":
        fake.delay_next("chat.getPermalink", 30)
    elif scenario == "500 after the post":
        fake.fail_next("chat.postMessage", status=500, after_effect=True)
    elif scenario == "timeout after the post":
        fake.fail_next("chat.postMessage", drop=True, after_effect=True)


def _trigger(plan: KillPlan, process: BotProcess, fake: FakeSlack, db: Path) -> None:
    """Wait for the moment the scenario kills at (the pause comes after it)."""

    def ready() -> bool:
        process.check_running()
        if plan.scenario in ("right after the intent", "intent, post in flight"):
            return _pending_or_posted(db)
        return bool(daily_posts(fake, plan.channels[0]))

    if plan.scenario in ("before the intent", "at a random instant"):
        time.sleep(max(0.0, plan.pause - (time.monotonic() - process.started)))
        return
    wait_until(ready, timeout=30, what=f"{plan.scenario}: the moment to kill", interval=0.01)
    time.sleep(plan.pause)


def _one_more_sweep(fake: FakeSlack, db: Path) -> dict[str, posting.PostResult]:
    """The scheduler's sweep once more, by a third process's code path, after the restart."""
    url = f"sqlite:///{db}"
    database = Database(url=url)
    settings = slack_settings(
        fake,
        url,
        channel=None,
        timezone="UTC",
        post_time=clock_time(0, 0),
        days=frozenset(range(1, 8)),
    )
    bot = build_slack_bot(settings=settings, database=database, clock=SystemClock(), mode="socket")
    try:
        return posting.post_due(poster=bot.poster, now=SystemClock().now())
    finally:
        bot.close()
        database.dispose()


def _check_exactly_once(fake: FakeSlack, db: Path, channels: tuple[str, ...]) -> None:
    """One post per channel per date in Slack, each recorded once in the database."""
    rows = db_posts(db)
    for channel in channels:
        messages = daily_posts(fake, channel)
        per_day = Counter(m["metadata"]["event_payload"]["date"] for m in messages)
        assert per_day and all(n == 1 for n in per_day.values()), f"{channel}: {dict(per_day)}"
        recorded = {
            str(r["local_date"]): (r["state"], r["ts"]) for r in rows if r["channel"] == channel
        }
        slack = {m["metadata"]["event_payload"]["date"]: ("posted", m["ts"]) for m in messages}
        assert recorded == slack, f"{channel}: database {recorded} != Slack {slack}"
    posted = db_scalar(db, "SELECT count(*) FROM papers WHERE status = 'posted'")
    assert posted == len(rows), f"{posted} papers marked posted for {len(rows)} posts"


def run_once(plan: KillPlan, folder: Path, processes: Processes) -> str:
    """Kill, restart, sweep once more, check; a line saying what happened."""
    folder.mkdir()
    db = folder / "club.db"
    prepare_database(db, channels=plan.channels)
    # Message timestamps near the real clock: the restart looks in history since its claim.
    with FakeSlack(ts_base=int(time.time())) as fake:
        for channel in plan.channels:
            fake.add_channel(channel, f"club-{channel.lower()}")
        env = bot_env(fake, db, channel=plan.channels[0])
        _arm(fake, plan.scenario)
        first = processes.start(env=env, cwd=folder, name="first")
        _trigger(plan, first, fake, db)
        first.kill9()
        at_kill = (
            f"rows={[r['state'] for r in db_posts(db)]} "
            f"in Slack={sum(len(daily_posts(fake, c)) for c in plan.channels)}"
        )
        clear_faults(fake)
        if plan.second_kill is not None:
            again = processes.start(env=env, cwd=folder, name="second")
            time.sleep(plan.second_kill)
            again.kill9()
        restart = processes.start(env=env, cwd=folder, name="restart")

        def posted() -> bool:
            restart.check_running()
            return _all_posted(db, plan.channels)

        try:
            took = wait_until(
                posted, timeout=RESTART_DEADLINE, what="the restart's post", interval=0.05
            )
        except TimeoutError:
            raise AssertionError(
                f"{plan.describe()}: the restart did not post within {RESTART_DEADLINE:.0f}s "
                f"(does it wait for a dead owner's lease?); rows={db_posts(db)}\n"
                f"{restart.stderr()[-3000:]}"
            ) from None
        restart.kill9()
        extra = _one_more_sweep(fake, db)
        assert {r.outcome for r in extra.values()} == {posting.Outcome.ALREADY}, extra
        _check_exactly_once(fake, db, plan.channels)
        assert integrity(db) == "ok"
        assert "Traceback" not in restart.stderr(), restart.stderr()
    return f"{plan.describe()}: at kill {at_kill}; restart posted in {took:.2f}s"


def _run_all(plans: list[KillPlan], tmp_path: Path, processes: Processes) -> None:
    failures: list[str] = []

    def one(plan: KillPlan) -> str:
        try:
            return run_once(plan, tmp_path / f"run{plan.n:03d}", processes)
        except Exception as exc:  # collect every failing run, with its plan
            failures.append(f"{plan.describe()}: {type(exc).__name__}: {exc}")
            return f"{plan.describe()}: FAILED"

    with ThreadPoolExecutor(max_workers=WORKERS) as pool:
        for line in pool.map(one, plans):
            print(line)
    assert not failures, "\n\n".join(failures)


@pytest.mark.timeout(600)
def test_kill_9_around_the_post_then_restart_posts_exactly_once(
    tmp_path: Path, processes: Processes
) -> None:
    rng = random.Random(seed_for("kill -9 around posting"))
    # Each scenario once in the plain suite (it must stay under five minutes on two cores);
    # PAPERCLUB_SLOW=1 runs 30 random ones.
    _run_all(plan_runs(rng, scaled(len(SCENARIOS), 30)), tmp_path, processes)


@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_kill_9_around_the_post_long(tmp_path: Path, processes: Processes) -> None:
    rng = random.Random(seed_for("kill -9 around posting, long"))
    _run_all(plan_runs(rng, 300), tmp_path, processes)


# -- two processes on one database -----------------------------------------------------------


def _two_at_once(
    folder: Path, processes: Processes, *, channels: tuple[str, ...], hold: float
) -> str:
    folder.mkdir()
    db = folder / "club.db"
    prepare_database(db, channels=channels)
    with FakeSlack(ts_base=int(time.time())) as fake:
        for channel in channels:
            fake.add_channel(channel, f"club-{channel.lower()}")
        env = bot_env(fake, db, channel=channels[0])
        if hold:  # the winner's post is slow: the other finds a live claim (BUSY), not a gap
            fake.delay_next("chat.postMessage", hold)
        both = [processes.start(env=env, cwd=folder, name=f"replica{n}") for n in (1, 2)]

        def settled() -> bool:
            for process in both:
                process.check_running()
            # Each replica logged its start-up sweep's outcome for every channel.
            return all(
                all(f"channel slack:T0001:{c}:" in p.stderr() for c in channels) for p in both
            ) and _all_posted(db, channels)

        wait_until(settled, timeout=30, what="both replicas' first sweep", interval=0.05)
        outcomes = [
            [
                line.rsplit(": ", 1)[-1]
                for line in p.stderr().splitlines()
                if "channel slack:" in line
            ]
            for p in both
        ]
        for process in both:
            process.kill9()
        _check_exactly_once(fake, db, channels)
        assert integrity(db) == "ok"
        for process in both:
            assert "Traceback" not in process.stderr(), process.stderr()
    return f"two replicas, {len(channels)} channel(s), hold={hold:.1f}s: {outcomes}"


@pytest.mark.timeout(scaled(300, 1800))
def test_two_processes_on_one_database_post_once(tmp_path: Path, processes: Processes) -> None:
    rng = random.Random(seed_for("two processes at post time"))
    # Both start together on a post that is due; with `hold`, the winner's chat.postMessage
    # is slow, so the other one meets a live claim (busy) rather than a finished post.
    rounds: list[tuple[tuple[str, ...], float]] = [(("C0001", "C0002"), 0.0), (("C0001",), 1.5)]
    for _ in range(scaled(0, 20)):
        rounds.append((("C0001", "C0002")[: rng.randint(1, 2)], rng.choice((0.0, 0.5, 1.5))))

    def one(item: tuple[int, tuple[tuple[str, ...], float]]) -> str:
        n, (channels, hold) = item
        return _two_at_once(tmp_path / f"pair{n}", processes, channels=channels, hold=hold)

    with ThreadPoolExecutor(max_workers=2) as pool:
        for line in pool.map(one, enumerate(rounds)):
            print(line)
