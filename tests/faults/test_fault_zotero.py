"""kill -9 of a real `paperclub run` while it writes a month of posts to Zotero, at each of
its writes (made first: the collection, then the items and notes, 25 posts a request), with
the write stored by Zotero but its answer not yet read; then a restart: every post is in the
library once, with one note, in one collection. The fake Zotero holds the chosen write's
answer until the process is dead.

An admin connecting the library in Slack starts the first sync at once, not at the next
interval. Two processes on one SQLite file both sync (on SQLite every process leads): each post
still lands once, as the plans (keys and write token) are shared through the archive."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fakeslack import FakeSlack, slash_command_payload
from tests.fakezotero import FakeZotero
from tests.faults.support import ADMIN, BotProcess, Processes, db_scalar, integrity, wait_until
from tests.faults.zotero_support import (
    API_KEY,
    USER,
    library_items,
    month_archive,
    written_once,
    zotero_env,
)

WRITES = 3  # POSTs of a first sync of 30 posts: the collection, then 25 + 5 posts
DEADLINE = 60.0  # seconds for a process to start and reach what a test waits for


def _stored(db: Path) -> int:
    """Copies whose create was answered."""
    return int(db_scalar(db, "SELECT count(*) FROM zotero_copies WHERE stored"))


def _until_stored(db: Path, *, posts: int, process: BotProcess) -> None:
    """Wait until every post's copy is stored; fail with the process's log if it is not."""
    try:
        wait_until(lambda: _stored(db) == posts, timeout=DEADLINE, what="every copy stored")
    except TimeoutError as late:
        raise AssertionError(f"{late}; {_stored(db)} of {posts}:\n{process.stderr()}") from None


@pytest.mark.parametrize("write", range(WRITES))
def test_a_kill_at_any_write_doubles_nothing(
    write: int, fake: FakeSlack, processes: Processes, tmp_path: Path
) -> None:
    db = tmp_path / "paperclub.db"
    posts = month_archive(db)
    with FakeZotero() as zotero:
        zotero.add_key(key=API_KEY, user_id=USER)
        held = zotero.hold(method="POST", skip=write)
        env = zotero_env(fake, db, zotero)
        first = processes.start(env=env, cwd=tmp_path, name="first")
        assert held.arrived.wait(DEADLINE), first.stderr()
        first.kill9()
        held.release.set()
        # The held write was stored: the collection, or (a later write) its items and notes.
        stored = zotero.library(kind="users", id=USER)
        assert stored.live(kind="collections")
        assert bool(library_items(zotero)) == (write > 0)
        second = processes.start(env=env, cwd=tmp_path, name="second")
        _until_stored(db, posts=len(posts), process=second)
        assert second.terminate() == 0, second.stderr()
        assert written_once(zotero, posts=len(posts)) == []
    assert integrity(db) == "ok"


def test_two_processes_on_one_archive_write_each_post_once(
    fake: FakeSlack, processes: Processes, tmp_path: Path
) -> None:
    db = tmp_path / "paperclub.db"
    posts = month_archive(db)
    with FakeZotero() as zotero:
        zotero.add_key(key=API_KEY, user_id=USER)
        env = zotero_env(fake, db, zotero)
        both = [processes.start(env=env, cwd=tmp_path, name=n) for n in ("one", "two")]
        # Both running (their signal handlers set), whichever wrote the month.
        fake.wait_connected(timeout=DEADLINE, total=2)
        _until_stored(db, posts=len(posts), process=both[0])
        for process in both:
            assert process.terminate() == 0, process.stderr()
        assert written_once(zotero, posts=len(posts)) == []


def test_connecting_in_slack_syncs_at_once(
    fake: FakeSlack, processes: Processes, tmp_path: Path
) -> None:
    db = tmp_path / "paperclub.db"
    posts = month_archive(db, linked=False)
    with FakeZotero() as zotero:
        zotero.add_key(key=API_KEY, user_id=USER)
        # An hour between syncs: only the command's wake can write the month within the wait.
        env = zotero_env(fake, db, zotero, every="3600") | {"PAPERCLUB_ADMINS": ADMIN}
        bot = processes.start(env=env, cwd=tmp_path, name="bot")
        fake.wait_connected(timeout=DEADLINE)
        url = fake.new_response_url()
        typed = f"watch zotero connect users/{USER} {API_KEY}"
        payload = slash_command_payload(text=typed, user_id=ADMIN, response_url=url)
        fake.wait_ack(fake.push("slash_commands", dict(payload)), timeout=DEADLINE)
        answer = fake.wait_response(url, timeout=DEADLINE)
        assert "Connected this channel to" in str(answer) and API_KEY not in str(answer)
        _until_stored(db, posts=len(posts), process=bot)
        assert bot.terminate() == 0, bot.stderr()
        assert API_KEY not in bot.stderr()  # the bot logs at DEBUG here
        assert written_once(zotero, posts=len(posts)) == []
