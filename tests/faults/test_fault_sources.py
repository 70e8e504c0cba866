"""kill -9 of a real `paperclub run` while it reads a watch and while it posts the day's
suggestions tray, then a restart: no suggestion lost or doubled (issue 32).

The bot reads FakeArxiv's cs.LG feed (PAPERCLUB_SOURCES_PRIVATE=1: it is on loopback) and
posts to FakeSlack. The channel follows on a midnight-UTC schedule, paused: no daily post, so
the only chat.postMessage is the tray, due at the first sweep of a process.

A tray message that reached Slack but was never noted in the database (a kill between the
send and the note) is found by the restart in the channel's history, by its buttons, and noted:
Slack holds exactly one tray, whichever moment the kill came at.
"""

from __future__ import annotations

import contextlib
import random
import sqlite3
import time
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from bot.db.database import Database
from bot.domain import ChannelKey
from bot.outbound.fetch import PoliteFetcher
from bot.ports.sources import TraySettings, WatchSpec
from bot.services import sources_read
from bot.sources.watch_text import SourceBases
from tests.fakeslack import FakeSlack
from tests.fakesources import Announcement, FakeArxiv
from tests.faults.support import (
    ADMIN,
    BotProcess,
    Processes,
    bot_env,
    clear_faults,
    db_scalar,
    integrity,
    prepare_database,
    read_only,
    seed_for,
    wait_until,
)

CHANNEL = ChannelKey(platform="slack", workspace="T0001", channel="C0001")
# The day the fake arXiv serves (a Monday, with a mailing); the bot's own cycle is the real
# UTC day, whatever the fake shows.
MAILING = date(2026, 1, 5)
# Hostile data is normal data: markup, mentions, a long abstract, emoji; one cross-list.
PAPERS = (
    Announcement(
        arxiv_id="2601.90001",
        title="Pipeline bubbles <!channel> @everyone",
        abstract="We *measure* <b>them</b> 🧪. " + "x" * 10_000,
        authors=("Ada Lovelace", "Alan Turing"),
        categories=("cs.LG",),
    ),
    Announcement(
        arxiv_id="2601.90002",
        title="Speculative decoding, `twice`",
        abstract="Drafts and verifiers <@U0001>.",
        authors=("Grace Hopper",),
        categories=("cs.LG", "cs.CL"),
    ),
    Announcement(
        arxiv_id="2601.90003",
        title="Cross-listed from statistics",
        abstract="A cross-list is one suggestion.",
        authors=("Emmy Noether",),
        categories=("stat.ML", "cs.LG"),
    ),
    Announcement(
        arxiv_id="2601.90004",
        title="Sparse attention 🚀 &amp; friends",
        abstract="Fewer pairs.",
        authors=("Kurt Gödel",),
        categories=("cs.LG",),
    ),
    Announcement(
        arxiv_id="2601.90005",
        title="Small models, large batches",
        abstract="Throughput.",
        authors=("Hedy Lamarr",),
        categories=("cs.LG",),
    ),
)
EXPECTED = {p.arxiv_id for p in PAPERS}
TRAY_HEADING = "New papers from your watches"  # bot/wording/suggestions.tray's first line
START_DEADLINE = 20.0  # seconds for a process to start and reach the moment a test waits for


# -- set-up ---------------------------------------------------------------------------------


def _watching_database(db: Path) -> int:
    """The sample list, C0001 followed at midnight UTC but paused (a tray, no daily post),
    a watch of arXiv's cs.LG, trays of five; the watch's id."""
    prepare_database(db, channels=("C0001",))
    database = Database(url=f"sqlite:///{db}")
    try:
        with database() as store:
            followed = store.channel(key=CHANNEL)
            assert followed is not None
            store.set_channel_flags(channel=followed, paused=True)
            watch = store.add_watch(
                channel=CHANNEL,
                spec=WatchSpec(kind="arxiv", target="cs.LG"),
                user=ADMIN,
                now=datetime.now(UTC),
            )
            store.save_tray_settings(channel=CHANNEL, settings=TraySettings(per_day=5))
    finally:
        database.dispose()
    return watch


def _env(fake: FakeSlack, db: Path, arxiv: FakeArxiv) -> dict[str, str]:
    """bot_env, without a configured channel (it would resume C0001), reading the fake arXiv
    every second."""
    return bot_env(
        fake,
        db,
        extra={
            "PAPERCLUB_CHANNEL": "",
            "PAPERCLUB_ARXIV_FEED_URL": arxiv.url,
            "PAPERCLUB_SOURCES_PRIVATE": "1",
            "PAPERCLUB_SOURCES_POLL": "1",
        },
    )


def _read_in_process(db: Path, arxiv: FakeArxiv) -> int:
    """Read the watch as the bot does (today's cycle): the suggestions a tray will show."""
    database = Database(url=f"sqlite:///{db}")
    try:
        done = sources_read.read_due(
            uow=database,
            fetcher=PoliteFetcher(allow_private=True),
            bases=SourceBases(arxiv_feed=arxiv.url, crossref=f"{arxiv.url}/crossref"),
            now=datetime.now(UTC),
        )
    finally:
        database.dispose()
    return done.kept


# -- the database and Slack, seen from outside ------------------------------------------------


def _suggested(db: Path) -> Counter[str]:
    """Suggestions per arXiv id."""
    with read_only(db) as conn:
        rows = conn.execute("SELECT arxiv_id FROM suggestions").fetchall()
    return Counter(str(row[0]) for row in rows)


def _cycle(db: Path, watch: int) -> str | None:
    """The announce cycle the watch was last read in full (None: never)."""
    with read_only(db) as conn:
        row = conn.execute(
            "SELECT cycle FROM source_states WHERE watch_id = ?", (watch,)
        ).fetchone()
    return None if row is None else row[0]


def _trays(db: Path) -> list[tuple[int, str, str | None]]:
    """Every tray: id, day, message id."""
    with read_only(db) as conn:
        rows = conn.execute("SELECT id, day, message_id FROM trays ORDER BY id").fetchall()
    return [(int(r[0]), str(r[1]), r[2]) for r in rows]


def _tray_items(db: Path) -> list[tuple[int, int]]:
    """Every (tray, suggestion) a tray holds."""
    with read_only(db) as conn:
        rows = conn.execute("SELECT tray_id, suggestion_id FROM tray_items").fetchall()
    return [(int(r[0]), int(r[1])) for r in rows]


def _tray_messages(fake: FakeSlack) -> list[dict[str, object]]:
    """The tray messages Slack holds in the channel."""
    return [m for m in fake.messages("C0001") if TRAY_HEADING in str(m.get("blocks"))]


def _in_flight(fake: FakeSlack, method: str) -> bool:
    """Whether the delay queued for `method` was taken: its call reached the fake and is held."""
    with fake.ws.lock:
        return not fake.ws._delays.get(method)


@contextlib.contextmanager
def _write_lock(db: Path) -> Iterator[None]:
    """Hold SQLite's write lock on the file: the bot's next write waits (its busy timeout is
    ten seconds), its reads go on (WAL)."""
    conn = sqlite3.connect(db, isolation_level=None, timeout=10)
    try:
        conn.execute("BEGIN IMMEDIATE")
        yield
        conn.execute("ROLLBACK")
    finally:
        conn.close()


def _clean(process: BotProcess) -> None:
    """No traceback in what it logged."""
    assert "Traceback" not in process.stderr(), process.stderr()[-3000:]


# -- 1. kill -9 during a fetch --------------------------------------------------------------


@pytest.mark.timeout(60)
@pytest.mark.parametrize(
    "moment", ["request in flight", "answer read, write held", "answer on its way"]
)
def test_kill_9_during_a_fetch_then_restart_keeps_every_suggestion_once(
    tmp_path: Path, processes: Processes, moment: str
) -> None:
    rng = random.Random(seed_for(f"kill -9 during a fetch, {moment}"))
    db = tmp_path / "club.db"
    watch = _watching_database(db)
    with FakeArxiv(today=MAILING) as arxiv, FakeSlack(ts_base=int(time.time())) as fake:
        fake.add_channel("C0001", "club")
        arxiv.calendar.announce(day=MAILING, papers=PAPERS)
        hold = arxiv.hold_next()
        env = _env(fake, db, arxiv)
        first = processes.start(env=env, cwd=tmp_path, name="first")
        assert hold.arrived.wait(START_DEADLINE), first.stderr()[-3000:]
        first.check_running()
        if moment == "request in flight":
            first.kill9()
            hold.go.set()  # the answer goes to a dead client
        elif moment == "answer read, write held":
            with _write_lock(db):  # the read's unit of work waits for it (ten seconds at most)
                hold.go.set()
                wait_until(lambda: not arxiv._in_flight, timeout=10, what="the answer sent")
                time.sleep(0.5)  # parsed by then: a dozen entries take milliseconds
                first.kill9()
        else:
            hold.go.set()
            time.sleep(rng.uniform(0.0, 0.25))  # somewhere in reading, parsing, writing
            first.kill9()
        kept_at_kill = sum(_suggested(db).values())
        read_at_kill = _cycle(db, watch)
        if moment != "answer on its way":
            assert (kept_at_kill, read_at_kill) == (0, None)
        # All or nothing: the suggestions and the read state are one unit of work.
        assert (kept_at_kill == 0) == (read_at_kill is None), (kept_at_kill, read_at_kill)

        restart = processes.start(env=env, cwd=tmp_path, name="restart")
        today = sources_read.cycle_of(now=datetime.now(UTC))

        def read() -> bool:
            restart.check_running()
            return _cycle(db, watch) == today and set(_suggested(db)) == EXPECTED

        wait_until(read, timeout=START_DEADLINE, what="the restart's read", interval=0.05)
        # A read cut off by the kill is read again; a finished one is not.
        assert len(arxiv.requests) == (2 if read_at_kill is None else 1), arxiv.requests
        restart.kill9()
        assert _suggested(db) == Counter(dict.fromkeys(EXPECTED, 1))
        assert db_scalar(db, "SELECT count(*) FROM suggestions WHERE state != 'waiting'") in (
            0,
            len(EXPECTED),  # the restart's next sweep may have shown them in a tray already
        )
        assert integrity(db) == "ok"
        _clean(restart)
    print(f"{moment}: at kill {kept_at_kill} kept, cycle {read_at_kill}")


# -- 2. kill -9 during the suggestions post -------------------------------------------------

POST_MOMENTS = {
    # chat.postMessage held, then dropped before its effect: nothing reached Slack.
    "post in flight, never lands": False,
    # chat.postMessage held, then stored: Slack has the tray, the killed bot never heard.
    "post in flight, lands after the kill": True,
    # Slack answered; the note waits for the database (the test holds its write lock).
    "posted, note pending": True,
}


@pytest.mark.timeout(60)
@pytest.mark.parametrize("moment", list(POST_MOMENTS))
def test_kill_9_during_the_tray_post_then_restart_loses_no_suggestion(
    tmp_path: Path, processes: Processes, moment: str
) -> None:
    db = tmp_path / "club.db"
    _watching_database(db)
    with FakeArxiv(today=MAILING) as arxiv, FakeSlack(ts_base=int(time.time())) as fake:
        fake.add_channel("C0001", "club")
        arxiv.calendar.announce(day=MAILING, papers=PAPERS)
        assert _read_in_process(db, arxiv) == len(PAPERS)
        env = _env(fake, db, arxiv)
        if moment == "post in flight, never lands":
            fake.delay_next("chat.postMessage", 30)  # cut short when the fake stops
            fake.fail_next("chat.postMessage", drop=True)
        elif moment == "post in flight, lands after the kill":
            fake.delay_next("chat.postMessage", 1.0)
        else:
            fake.delay_next("chat.postMessage", 1.0)  # time to take the lock while in flight
        first = processes.start(env=env, cwd=tmp_path, name="first")

        def opened() -> bool:
            first.check_running()
            return bool(_trays(db))

        wait_until(opened, timeout=START_DEADLINE, what="the tray opened", interval=0.005)
        with contextlib.ExitStack() as held:
            if moment == "posted, note pending":
                # Once the post is in flight (its claim renewed before it, a write of its own),
                # the database is held: Slack answers, and the note waits.
                wait_until(
                    lambda: _in_flight(fake, "chat.postMessage"),
                    timeout=10,
                    what="the tray's post in flight",
                )
                held.enter_context(_write_lock(db))
                wait_until(lambda: _tray_messages(fake), timeout=10, what="the tray in Slack")
            else:
                wait_until(
                    lambda: _in_flight(fake, "chat.postMessage"),
                    timeout=10,
                    what="the tray's post in flight",
                )
            first.kill9()
        if POST_MOMENTS[moment]:
            wait_until(lambda: _tray_messages(fake), timeout=10, what="the tray in Slack")
        at_kill = (_trays(db), len(_tray_messages(fake)))
        assert at_kill[0][0][2] is None, at_kill  # never noted: the restart must post it
        clear_faults(fake)

        restart = processes.start(env=env, cwd=tmp_path, name="restart")

        def noted() -> bool:
            restart.check_running()
            return all(message is not None for _, _, message in _trays(db))

        wait_until(noted, timeout=START_DEADLINE, what="the restart's tray", interval=0.05)
        restart.kill9()

        # Once a day: one tray row, and every suggestion in it, once.
        trays = _trays(db)
        assert len(trays) == 1, trays
        tray_id, _, message_id = trays[0]
        items = _tray_items(db)
        ids = [suggestion for _, suggestion in items]
        assert {t for t, _ in items} == {tray_id}
        assert sorted(ids) == sorted(set(ids))
        with read_only(db) as conn:
            every = {int(r[0]) for r in conn.execute("SELECT id FROM suggestions")}
            states = Counter(str(r[0]) for r in conn.execute("SELECT state FROM suggestions"))
        assert set(ids) == every and states == Counter(shown=len(PAPERS)), (ids, states)
        assert _suggested(db) == Counter(dict.fromkeys(EXPECTED, 1))
        # Slack: the noted message is a tray showing every suggestion.
        messages = _tray_messages(fake)
        assert message_id in {m["ts"] for m in messages}, (message_id, messages)
        for shown in messages:
            text = str(shown["blocks"])
            assert all(p.arxiv_id in text or p.title[:12] in text for p in PAPERS), text[:2000]
        assert integrity(db) == "ok"
        _clean(restart)
        print(f"{moment}: at kill {at_kill}; Slack holds {len(messages)} tray message(s)")
        # Once in Slack: a tray that reached it before the kill is found in its history and
        # noted, never posted again.
        assert len(messages) == 1, (at_kill, messages)
        if POST_MOMENTS[moment]:
            assert at_kill[1] == 1 and message_id == messages[0]["ts"], (at_kill, message_id)
