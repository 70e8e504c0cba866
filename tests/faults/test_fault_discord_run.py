"""`paperclub run` as a real process against the fake Discord: it posts once, keeps votes
(button and reaction) and thread comments (with an edit and a delete), answers a search; a
kill -9 and a restart post nothing twice and lose nothing; SIGTERM stops it cleanly; and a
kill -9 between claiming the post and recording it is recovered on restart, never doubled."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest

from bot.db.database import Database
from bot.db.migrate import upgrade_url
from bot.discord.embeds import vote_custom_id
from bot.domain import ChannelKey, VoteState
from tests.conftest import ROOT
from tests.fakediscord import FakeDiscord
from tests.faults.support import BotProcess, Processes, read_only, wait_until
from tests.services.conftest import load_sample

# discord.py waits 2 s after GUILD_CREATE for more guilds before it is ready, on top of the
# interpreter's start; the machine is shared, so leave room.
START = 30.0
WAIT = 10.0
EPHEMERAL = 64
DEFERRED_MESSAGE, DEFERRED_UPDATE = 5, 6
MESSAGES = "/channels/{id}/messages"
THREADS = "/channels/{id}/messages/{id}/threads"


def _env(*, fake: FakeDiscord, url: str) -> dict[str, str]:
    """The environment an operator would set, pointed at the fake: Discord only, no Slack."""
    base = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("SLACK_", "PAPERCLUB_", "DISCORD_"))
    }
    return base | {
        "PYTHONPATH": str(ROOT),
        "DISCORD_TOKEN": fake.token,
        "DISCORD_API_URL": fake.api_url,
        "DISCORD_GATEWAY_URL": fake.gateway_url,
        "DISCORD_CHANNEL": fake.channel_id,
        "PAPERCLUB_DATABASE_URL": url,
        # Midnight, every day: the post is due as soon as the bot starts (the catch-up path).
        "PAPERCLUB_POST_TIME": "00:00",
        "PAPERCLUB_TIMEZONE": "UTC",
        "PAPERCLUB_DAYS": "daily",
        "PAPERCLUB_LOG_LEVEL": "INFO",
        "PAPERCLUB_HTTP_PORT": "0",  # /healthz on a free port: tests run side by side
        # Nothing may leave the machine: look-ups would go to the fake (and get 404).
        "PAPERCLUB_ARXIV_API_URL": f"{fake.http_url}/arxiv",
        "PAPERCLUB_CROSSREF_API_URL": f"{fake.http_url}/crossref",
    }


def _prepared(*, path: Path) -> str:
    """A migrated SQLite file with the sample list imported; its URL."""
    url = f"sqlite:///{path}"
    upgrade_url(url=url)
    database = Database(url=url)
    try:
        assert load_sample(database) > 1
    finally:
        database.dispose()
    return url


def _key(*, fake: FakeDiscord) -> ChannelKey:
    """#general's key in the archive."""
    return ChannelKey(platform="discord", workspace=fake.guild_id, channel=fake.channel_id)


def _daily_posts(*, fake: FakeDiscord) -> list[dict[str, Any]]:
    """Our daily posts in #general (the bot's messages with an embed)."""
    return [
        m
        for m in fake.messages(fake.channel_id)
        if m["author"]["id"] == fake.bot_id and m.get("embeds")
    ]


def _post_requests(*, fake: FakeDiscord) -> list[dict[str, Any]]:
    """The bodies of every daily post sent to #general (notices carry no nonce)."""
    path = f"/channels/{fake.channel_id}/messages"
    return [
        r.json
        for r in fake.requests("POST", path)
        if isinstance(r.json, dict) and r.json.get("nonce")
    ]


def _custom_ids(*, message: dict[str, Any]) -> list[str]:
    """The custom ids of a message's buttons, in order."""
    return [c["custom_id"] for row in message["components"] for c in row["components"]]


def _labels(*, fake: FakeDiscord, message_id: str) -> list[str]:
    """The vote buttons' labels as Discord shows them now."""
    shown = fake.message(message_id)
    return [c["label"] for row in shown["components"] for c in row["components"]]


def _start(processes: Processes, *, env: dict[str, str], cwd: Path, name: str) -> BotProcess:
    """Start `python -m bot run`."""
    return processes.start(env=env, cwd=cwd, name=name)


def _wait_log(process: BotProcess, *, text: str, timeout: float = START) -> None:
    """Wait until the process logged `text`; fail with its log if it dies or never does."""

    def logged() -> bool:
        process.check_running()
        return text in process.stderr()

    try:
        wait_until(logged, timeout=timeout, what=f"{process.name}: {text!r}", interval=0.02)
    except TimeoutError as exc:
        raise AssertionError(f"{exc}\n{process.stderr()[-4000:]}") from None


def _ready(process: BotProcess) -> None:
    """The catch-up sweep is over and the gateway is ready (slash commands and clicks work)."""
    _wait_log(process, text="caught up:")
    _wait_log(process, text="connected to Discord as")


def _comment(*, db: Path, message_id: str) -> tuple[str, bool] | None:
    """A comment's text and deleted flag as the file holds it now (another process writes)."""
    with read_only(db) as conn:
        row = conn.execute(
            "SELECT text, deleted FROM comments WHERE message_id = ?", (message_id,)
        ).fetchone()
    return None if row is None else (str(row[0]), bool(row[1]))


def _wait_comment(
    *, db: Path, process: BotProcess, message_id: str, want: tuple[str, bool]
) -> None:
    """Wait until the process stored the comment as wanted (it has no other outside sign)."""

    def stored() -> bool:
        process.check_running()
        return _comment(db=db, message_id=message_id) == want

    try:
        wait_until(stored, timeout=WAIT, what=f"comment {message_id} = {want}", interval=0.02)
    except TimeoutError as exc:
        seen = _comment(db=db, message_id=message_id)
        raise AssertionError(f"{exc}; stored: {seen}\n{process.stderr()[-3000:]}") from None


def _title_of(*, db: Path, post_id: int) -> str:
    """The title of the paper a post shows, as the file holds it."""
    with read_only(db) as conn:
        row = conn.execute(
            "SELECT p.title FROM posts o JOIN papers p ON p.id = o.paper_id WHERE o.id = ?",
            (post_id,),
        ).fetchone()
    assert row is not None, f"no post {post_id}"
    return str(row[0])


def _search(*, fake: FakeDiscord, query: str) -> dict[str, Any]:
    """Run /paperclub search as alice; the follow-up message once it came."""
    asked = fake.slash("paperclub", "search", {"query": query})
    deferred = fake.wait_callback(asked.id, timeout=WAIT)
    assert deferred["type"] == DEFERRED_MESSAGE and deferred["data"]["flags"] & EPHEMERAL
    fake.wait_until(lambda: bool(fake.interaction(asked.id).followup_ids), timeout=WAIT)
    [followup] = fake.interaction(asked.id).followup_ids
    return fake.message(followup)


def test_run_posts_keeps_votes_and_comments_survives_kill_9_and_stops_on_sigterm(
    tmp_path: Path, processes: Processes
) -> None:
    db = tmp_path / "club.db"
    url = _prepared(path=db)
    with FakeDiscord() as fake:
        carol = fake.add_member("carol")  # before any client connects: she is in GUILD_CREATE
        env = _env(fake=fake, url=url)
        first = _start(processes, env=env, cwd=tmp_path, name="first")
        _ready(first)
        [post] = _daily_posts(fake=fake)
        assert post["nonce"] is not None and post.get("thread"), post
        up, down = _custom_ids(message=post)
        post_id = int(up.rsplit(":", 1)[1])
        assert (up, down) == tuple(vote_custom_id(post_id=post_id, up=way) for way in (True, False))

        # Votes: a click is stored before its ack; the reaction shows in the redraw.
        click = fake.click(post["id"], up)
        assert fake.wait_callback(click.id, timeout=WAIT)["type"] == DEFERRED_UPDATE
        fake.react(post["id"], "👎", user=fake.bob_id)
        fake.wait_until(
            lambda: _labels(fake=fake, message_id=post["id"]) == ["👍 1", "👎 1"], timeout=WAIT
        )

        # Comments in the post's thread (it has the post's id), an edit and a delete.
        said = fake.user_says(thread=post["id"], text="The sharding argument is neat.")
        _wait_comment(
            db=db,
            process=first,
            message_id=said["id"],
            want=("The sharding argument is neat.", False),
        )
        fake.user_edits(said["id"], "The sharding argument is neat, if costly.")
        _wait_comment(
            db=db,
            process=first,
            message_id=said["id"],
            want=("The sharding argument is neat, if costly.", False),
        )
        gone = fake.user_says(thread=post["id"], text="oops, wrong thread", user=fake.bob_id)
        _wait_comment(
            db=db, process=first, message_id=gone["id"], want=("oops, wrong thread", False)
        )
        fake.user_deletes(gone["id"])
        _wait_comment(db=db, process=first, message_id=gone["id"], want=("", True))

        # /paperclub search: deferred, then an ephemeral follow-up that names the paper.
        title = _title_of(db=db, post_id=post_id)
        found = _search(fake=fake, query="costly")  # the edited text is what is searched
        shown = found["content"].replace("\\", "")  # markdown escapes aside
        link = f"https://discord.com/channels/{fake.guild_id}/{fake.channel_id}/{post['id']}"
        assert found["flags"] & EPHEMERAL, found
        assert "1 of 1" in shown and title in shown and link in shown, shown
        missed = _search(fake=fake, query="oops")  # the deleted comment left the index
        assert missed["flags"] & EPHEMERAL and link not in missed["content"], missed

        first.kill9()

        again = _start(processes, env=env, cwd=tmp_path, name="restart")
        _ready(again)
        assert len(_daily_posts(fake=fake)) == 1
        assert len(_post_requests(fake=fake)) == 1  # the restart did not even try
        # The restart still takes clicks on the old post and comments in its thread.
        late = fake.click(post["id"], up, user=carol)
        assert fake.wait_callback(late.id, timeout=WAIT)["type"] == DEFERRED_UPDATE
        fake.wait_until(
            lambda: _labels(fake=fake, message_id=post["id"]) == ["👍 2", "👎 1"], timeout=WAIT
        )
        after = fake.user_says(thread=post["id"], text="Back after the crash.", user=carol)
        _wait_comment(
            db=db, process=again, message_id=after["id"], want=("Back after the crash.", False)
        )

        # Idle now (the redraw is out): test_sigterm_sends_the_last_redraw covers a busy stop.
        stopping = time.monotonic()
        status = again.terminate(timeout=15)
        took = time.monotonic() - stopping
        log = again.stderr()
        assert status == 0, log
        assert took < 8, f"SIGTERM took {took:.1f}s\n{log}"
        assert "stopped cleanly" in log and "Traceback" not in log, log
        # A clean start and run warn of nothing (discord.py's missing-voice notes included).
        assert [line for line in log.splitlines() if " WARNING " in line] == [], log
        for process in (first, again):
            assert fake.token not in process.stderr()
        assert len(_daily_posts(fake=fake)) == 1

    # Everything is in the file, read after the processes ended.
    database = Database(url=url)
    try:
        with database(write=False) as store:
            row = store.post_by_message(channel=_key(fake=fake), message_id=post["id"])
            assert row is not None and row.message_id == post["id"]
            assert store.post_by_id(post_id=post_id) == row
            assert store.vote_of(post_id=post_id, user=fake.alice_id) == VoteState(1, "button")
            assert store.vote_of(post_id=post_id, user=fake.bob_id) == VoteState(-1, "reaction:👎")
            assert store.vote_of(post_id=post_id, user=carol) == VoteState(1, "button")
            kept = store.comment_at(post=row, message_id=said["id"])
            assert kept is not None and not kept.deleted
            assert kept.text == "The sharding argument is neat, if costly."
            deleted = store.comment_at(post=row, message_id=gone["id"])
            assert deleted is not None and deleted.deleted
            late_comment = store.comment_at(post=row, message_id=after["id"])
            assert late_comment is not None and late_comment.text == "Back after the crash."
            assert len(store.channels()) == 1
    finally:
        database.dispose()
    with read_only(db) as conn:
        assert conn.execute("SELECT count(*) FROM posts").fetchone()[0] == 1
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


# -- kill -9 between claiming the post and recording it ----------------------------------------


def _posts_rows(*, db: Path) -> list[tuple[str, str | None, str | None]]:
    """Every posts row: state, message id and claim owner."""
    with read_only(db) as conn:
        rows = conn.execute("SELECT state, message_id, claimed_by FROM posts ORDER BY id")
        return [(str(r[0]), r[1], r[2]) for r in rows.fetchall()]


def _killed_before_the_record(
    processes: Processes, *, fake: FakeDiscord, env: dict[str, str], cwd: Path, fails: str
) -> BotProcess:
    """Start the bot with the next `fails` request answered 500 and kill -9 it as soon as the
    fake has answered: discord.py sleeps a second before its retry, so the process dies with
    its claim in the database and no message id recorded."""
    fake.fail_next("POST", fails, status=500)
    first = _start(processes, env=env, cwd=cwd, name="first")
    try:
        fake.wait_request("POST", fails, timeout=START)
    except TimeoutError:
        raise AssertionError(f"no POST {fails}\n{first.stderr()[-3000:]}") from None
    first.kill9()
    # The kill landed inside the retry's sleep: one attempt only, nothing recorded.
    assert [r.status for r in fake.requests("POST", fails)] == [500], first.stderr()
    return first


@pytest.mark.parametrize(
    ("fails", "landed"),
    [
        pytest.param(MESSAGES, False, id="post refused, killed in the retry"),
        pytest.param(THREADS, True, id="post landed, killed opening its thread"),
    ],
)
def test_kill_9_between_claim_and_record_then_restart_posts_exactly_once(
    tmp_path: Path, processes: Processes, fails: str, landed: bool
) -> None:
    db = tmp_path / "club.db"
    url = _prepared(path=db)
    with FakeDiscord() as fake:
        env = _env(fake=fake, url=url)
        first = _killed_before_the_record(processes, fake=fake, env=env, cwd=tmp_path, fails=fails)
        [(state, message_id, owner)] = _posts_rows(db=db)
        assert (state, message_id) == ("pending", None) and owner and f":{first.pid}:" in owner
        assert len(_daily_posts(fake=fake)) == int(landed)

        restart = _start(processes, env=env, cwd=tmp_path, name="restart")
        # Its first sweep takes the dead owner's claim over at once (no lease to wait out).
        _wait_log(restart, text="caught up:")
        [post] = _daily_posts(fake=fake)
        sent = _post_requests(fake=fake)
        log = restart.stderr()
        if landed:  # found in history: not sent again
            assert len(sent) == 1 and "was already in" in log and ": recovered" in log, log
        else:  # nothing landed: sent again, with the same nonce
            assert len(sent) == 2 and sent[0]["nonce"] == sent[1]["nonce"] == post["nonce"]
            assert ": posted" in log and post.get("thread"), log
        assert _posts_rows(db=db)[0][:2] == ("posted", post["id"])
        assert "Traceback" not in log, log
        restart.kill9()
        assert len(_daily_posts(fake=fake)) == 1

    database = Database(url=url)
    try:
        with database(write=False) as store:
            row = store.post_by_message(channel=_key(fake=fake), message_id=post["id"])
            assert row is not None
            assert row.message_id == post["id"] and post["nonce"] == f"pc{row.id}"
    finally:
        database.dispose()
    with read_only(db) as conn:
        posted = conn.execute("SELECT count(*) FROM papers WHERE status = 'posted'").fetchone()
    assert posted[0] == 1  # the paper left the queue once


def test_a_post_recovered_from_history_gets_its_thread(
    tmp_path: Path, processes: Processes
) -> None:
    url = _prepared(path=tmp_path / "club.db")
    with FakeDiscord() as fake:
        env = _env(fake=fake, url=url)
        _killed_before_the_record(processes, fake=fake, env=env, cwd=tmp_path, fails=THREADS)
        restart = _start(processes, env=env, cwd=tmp_path, name="restart")
        _wait_log(restart, text="caught up:")
        [post] = _daily_posts(fake=fake)
        assert "was already in" in restart.stderr()
        restart.kill9()
    # Without it nobody can discuss the day's paper where the bot keeps comments.
    assert post.get("thread"), "the recovered post has no thread"


def test_sigterm_sends_the_last_redraw(tmp_path: Path, processes: Processes) -> None:
    url = _prepared(path=tmp_path / "club.db")
    with FakeDiscord() as fake:
        bot = _start(processes, env=_env(fake=fake, url=url), cwd=tmp_path, name="bot")
        _ready(bot)
        [post] = _daily_posts(fake=fake)
        up = _custom_ids(message=post)[0]
        fake.wait_callback(fake.click(post["id"], up).id, timeout=WAIT)
        # That redraw goes out at once; the next one waits out the coalescer's interval (1 s).
        fake.wait_until(
            lambda: _labels(fake=fake, message_id=post["id"]) == ["👍 1", "👎 0"], timeout=WAIT
        )
        fake.wait_callback(fake.click(post["id"], up).id, timeout=WAIT)  # withdrawn: on disk
        status = bot.terminate(timeout=15)  # well within that second
        log = bot.stderr()
        assert status == 0 and "stopped cleanly" in log, log
        assert "Traceback" not in log, log
        assert _labels(fake=fake, message_id=post["id"]) == ["👍 0", "👎 0"], log
