"""Two replicas' sweeps of the sessions' messages at one instant, on PostgreSQL: what the
reminder and poll fault tests both run to show each message goes once."""

from __future__ import annotations

import random
import threading
import time
from datetime import datetime
from pathlib import Path

from bot.db.database import Database
from bot.services.session_notices import SessionSender, send_due_notices
from tests.fakeslack import FakeSlack
from tests.faults.support import BotProcess, Processes, bot_env, wait_until
from tests.services.memory_chat import MemoryChat


def sweep_in_pairs(*, url: str, chat: MemoryChat, now: datetime, rounds: int = 3) -> list[int]:
    """Two processes' sweeps (two databases, each owner taking the other for alive) started
    together `rounds` times at `now`; how many messages each sweep sent."""
    databases = [Database(url=url) for _ in range(2)]
    barrier = threading.Barrier(2)
    sent: list[int] = []

    def sweep(n: int) -> None:
        sender = SessionSender(
            uow=databases[n],
            chat=chat,
            platform="slack",
            owner=f"host:{n}:replica",
            owner_alive=lambda _owner: True,  # each sees the other running
        )
        barrier.wait()
        sent.append(send_due_notices(sessions=sender, now=now))

    try:
        for _ in range(rounds):  # the same instant swept again changes nothing
            threads = [threading.Thread(target=sweep, args=(n,)) for n in range(2)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(timeout=30)
    finally:
        for database in databases:
            database.dispose()
    return sent


START_DEADLINE = 20.0  # seconds for a replica to start and lead
CAUGHT_UP = "caught up:"
LEADING = "leading: this replica runs the scheduler"


def leader_killed_at_random(
    *, fake: FakeSlack, url: str, processes: Processes, folder: Path, rng: random.Random
) -> tuple[list[BotProcess], BotProcess]:
    """Two replicas on the PostgreSQL `url` against `fake`; the leader killed with -9 at a
    random instant within a second of leading (the instant itself is what is tested); the
    standby's takeover and its first sweep awaited, then it stopped cleanly. Both replicas,
    and the standby."""
    env = bot_env(
        fake, folder / "unused.db", extra={"PAPERCLUB_CHANNEL": "", "PAPERCLUB_DATABASE_URL": url}
    )
    pair = [processes.start(env=env, cwd=folder, name=f"replica-{s}") for s in "ab"]
    wait_until(
        lambda: any(LEADING in p.stderr() for p in pair), timeout=START_DEADLINE, what="a lead"
    )
    (leader,) = [p for p in pair if LEADING in p.stderr()]
    (standby,) = [p for p in pair if p is not leader]
    time.sleep(rng.uniform(0.0, 1.0))
    leader.kill9()
    wait_until(lambda: LEADING in standby.stderr(), timeout=15, what="the takeover")
    wait_until(lambda: CAUGHT_UP in standby.stderr(), timeout=15, what="its sweep")
    standby.check_running()
    assert standby.terminate() == 0, standby.stderr()[-3000:]
    return pair, standby
