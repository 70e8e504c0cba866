"""Issue 31's measurement as a test: `paperclub run` against the fake Discord, a flood of
reactions and thread replies, the process killed with -9 part-way while the flood goes on,
restarted: after its read-back, everything Discord shows is in the archive once."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from tests.discord.reconcile_support import DOWN, UP, archived, shown_replies, shown_votes
from tests.fakediscord import FakeDiscord
from tests.faults.support import Processes, read_only, wait_until
from tests.faults.test_fault_discord_run import _daily_posts, _env, _prepared, _ready

PEOPLE = 150  # each reacts once and replies once: 300 acts


@pytest.fixture
def processes() -> Iterator[Processes]:
    """Every `paperclub run` started here is SIGKILLed and reaped at the end."""
    started = Processes()
    try:
        yield started
    finally:
        started.kill_all()


def _finished_since(db: Path, *, since: datetime) -> bool:
    """Whether #general's read-back began at or after `since` (the restart's) and finished,
    nobody holding it any more."""
    with read_only(db) as conn:
        row = conn.execute(
            "SELECT started_at, finished_at, claimed_by FROM reconciliations"
        ).fetchone()
    if row is None or row[0] is None or row[1] is None or row[2] is not None:
        return False
    started, finished = (datetime.fromisoformat(str(v)).replace(tzinfo=UTC) for v in row[:2])
    return started >= since and finished >= started


def test_a_flood_across_a_kill_9_is_archived_once(tmp_path: Path, processes: Processes) -> None:
    db = tmp_path / "club.db"
    url = _prepared(path=db)
    with FakeDiscord() as fake:
        people = [fake.add_member(f"p{i}") for i in range(PEOPLE)]
        env = _env(fake=fake, url=url)
        first = processes.start(env=env, cwd=tmp_path, name="first")
        _ready(first)
        [post] = _daily_posts(fake=fake)
        post_id = post["id"]
        half, killed = threading.Event(), threading.Event()

        def flood() -> None:
            for i, person in enumerate(people):
                fake.people.react(post_id, UP if i % 3 else DOWN, user=person)
                fake.people.say(post_id, f"reply {i} @everyone **x** 🎉", user=person)
                if i % 10 == 9:
                    fake.people.unreact(post_id, UP, user=people[i - 1])
                if i == PEOPLE // 3:
                    half.set()
                    assert killed.wait(30)  # the rest of the flood happens while it is down

        flooding = threading.Thread(target=flood, name="flood")
        flooding.start()
        assert half.wait(20)
        # Heard live before the kill: part of the flood must be in the archive already.
        wait_until(
            lambda: archived(str(db), post=post_id).comment_rows > 0,
            timeout=20,
            what="a reply heard live",
            interval=0.02,
        )
        first.kill9()  # mid-flood: the rest of it goes on while the bot is down
        killed.set()
        since = datetime.now(UTC)
        again = processes.start(env=env, cwd=tmp_path, name="again")
        flooding.join(60)
        assert not flooding.is_alive()
        _ready(again)
        wait_until(
            lambda: _finished_since(db, since=since),
            timeout=30,
            what="the read-back after the restart",
            interval=0.05,
        )
        stored = archived(str(db), post=post_id)
        assert stored.live_votes() == shown_votes(fake, post=post_id, buttons={})
        assert stored.live_comments() == shown_replies(fake, post=post_id)
        assert stored.comment_rows == len(stored.comments) == PEOPLE
        origins = [o for _, o in stored.votes.values()] + [c[3] for c in stored.comments.values()]
        assert "reconciled" in origins and "live" in origins  # heard, then read back
        assert again.terminate(timeout=15) == 0, again.stderr()[-3000:]
