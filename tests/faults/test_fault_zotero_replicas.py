"""Two `paperclub run` replicas on one PostgreSQL database, both with Zotero: only the leader
syncs, and when it is killed with SIGKILL while Zotero holds its first write of the month
(stored, not yet answered), the other takes the lead and finishes the sync: every post is in
the library once, with one note, in one collection."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from tests.fakeslack import FakeSlack
from tests.fakezotero import FakeZotero
from tests.faults.support import Processes, wait_until
from tests.faults.zotero_support import (
    API_KEY,
    USER,
    month_of_posts,
    written_once,
    zotero_env,
)

pytestmark = pytest.mark.postgres

LEADING = "leading: this replica runs the scheduler"
DEADLINE = 60.0  # seconds for a replica to start, lead or finish what a test waits for


@pytest.fixture
def stored(postgres_url: str) -> Iterator[Callable[[], int]]:
    """How many copies are stored, read from outside the replicas."""
    engine = create_engine(postgres_url)

    def count() -> int:
        with engine.connect() as connection:
            found = connection.execute(text("SELECT count(*) FROM zotero_copies WHERE stored"))
            return int(found.scalar_one())

    yield count
    engine.dispose()


def test_the_standby_finishes_a_killed_leaders_sync_once(
    postgres_url: str,
    stored: Callable[[], int],
    fake: FakeSlack,
    processes: Processes,
    tmp_path: Path,
) -> None:
    posts = month_of_posts(url=postgres_url)
    with FakeZotero() as zotero:
        zotero.add_key(key=API_KEY, user_id=USER)
        held = zotero.hold(method="POST", skip=1)  # the first write of items (after the collection)
        env = zotero_env(fake, tmp_path / "unused.db", zotero) | {
            "PAPERCLUB_DATABASE_URL": postgres_url
        }
        pair = [processes.start(env=env, cwd=tmp_path, name=side) for side in "ab"]
        assert held.arrived.wait(DEADLINE), pair[0].stderr() + pair[1].stderr()
        (leader,) = [p for p in pair if LEADING in p.stderr()]
        (standby,) = [p for p in pair if p is not leader]
        # Only the leader asked Zotero: one collection made, one write of items held.
        writes = [r for r in zotero.requests if r.method == "POST"]
        assert [r.path.split("?")[0].rsplit("/", 1)[-1] for r in writes] == ["collections", "items"]
        leader.kill9()
        held.release.set()
        wait_until(lambda: LEADING in standby.stderr(), timeout=DEADLINE, what="the takeover")
        try:
            wait_until(lambda: stored() == len(posts), timeout=DEADLINE, what="every copy stored")
        except TimeoutError as late:
            raise AssertionError(f"{late}:\n{standby.stderr()}") from None
        assert standby.terminate() == 0, standby.stderr()
        assert written_once(zotero, posts=len(posts)) == []
