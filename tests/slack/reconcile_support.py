"""Issue 31's Slack scenarios: the real bot started, stopped and started again on one SQLite file,
serving the fake over Socket Mode or HTTP while the fake's people act; and what the platform
shows, read from the fake, beside what the archive holds."""

from __future__ import annotations

import contextlib
import sqlite3
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from bot.config.settings import Settings
from bot.db.database import Database
from bot.export_formats import record_dict
from bot.services import listing, reconcile_admin
from tests.fakeslack import FakeSlack
from tests.slack.conftest import CHANNEL, KEY, SECRET
from tests.wired import SlackBot, build_slack_bot, http_service

PEOPLE = tuple(f"U0P{n}" for n in range(1, 7))  # who acts in the scenarios


class TickingClock:
    """A clock that starts at `at` and runs with real time: the archive's order of a live event
    and a read (which the reconciliation compares) needs time to pass, and the daily post is
    due at the start."""

    def __init__(self, at: datetime) -> None:
        """Start at `at` now."""
        self.at, self.started = at, time.monotonic()

    def now(self) -> datetime:
        """`at` plus the seconds since the start."""
        return self.at + timedelta(seconds=time.monotonic() - self.started)


def wait_until(predicate: Any, *, timeout: float, what: str) -> float:
    """Poll until predicate() is truthy; the seconds it took, or TimeoutError naming `what`."""
    start = time.monotonic()
    while not predicate():
        if time.monotonic() - start > timeout:
            raise TimeoutError(f"{what}: not within {timeout:.0f} s")
        time.sleep(0.01)
    return time.monotonic() - start


@dataclass
class Served:
    """A bot serving the fake, and where HTTP mode's requests go (None in Socket Mode)."""

    bot: SlackBot
    events_url: str | None


@contextlib.contextmanager
def running(
    *, fake: FakeSlack, settings: Settings, url: str, clock: TickingClock, mode: str
) -> Iterator[Served]:
    """The bot as `paperclub run` serves it in `mode` (its scheduler, its reconciliation),
    people's events delivered to it; stopped cleanly on exit, after which they are dropped."""
    database = Database(url=url)
    bot = build_slack_bot(settings=settings, database=database, clock=clock, mode=mode)
    stop = threading.Event()
    serving: threading.Thread | None = None
    service = None
    events_url: str | None = None
    try:
        opened = fake.socket_mode.connections_opened
        if mode != "socket":
            service = http_service(bot=bot, settings=replace(settings, http_port=0))
            service.start()
            events_url = f"http://127.0.0.1:{service.port}/slack/events"
            fake.people.deliver_to(events_url, SECRET)
        # As `paperclub run`: the platform serves in both modes (HTTP mode asks for the
        # read-back once its requests flow, Socket Mode when its session opens).
        serving = threading.Thread(
            target=bot.platform.serve, kwargs={"stop": stop}, name="serve", daemon=True
        )
        serving.start()
        if mode == "socket":
            fake.wait_connected(10, total=opened + 1)
        bot.wiring.start()
        yield Served(bot=bot, events_url=events_url)
    finally:
        fake.people.deliver_to(None)
        stop.set()
        if serving is not None:
            serving.join(10)
        if service is not None:
            service.stop()
        bot.close()
        database.dispose()


def reconciled_since(bot: SlackBot, at: datetime) -> bool:
    """The channel's run asked at or after `at` has finished."""
    [status] = reconcile_admin.statuses(uow=bot.database, channels=[KEY])
    return (
        status.finished_at is not None
        and not status.running
        and status.wanted_at is not None
        and status.wanted_at >= at
        and status.finished_at >= status.wanted_at
    )


def export_post(database: Database, ts: str) -> dict[str, Any]:
    """The JSON export's entry for the post of `ts`."""
    records = listing.records(uow=database, workspace=KEY.workspace_key)
    posts = [p for r in records for p in record_dict(record=r)["posts"] if p["message_id"] == ts]
    [post] = posts
    return dict(post)


def shown_votes(fake: FakeSlack, ts: str, settings: Settings) -> dict[str, int]:
    """Each person's vote as the post's reactions show it (the bot's own left out)."""
    votes: dict[str, int] = {}
    for reaction in fake.message(CHANNEL, ts).get("reactions") or []:
        base = str(reaction["name"]).split("::", 1)[0]
        value = 1 if base in settings.up_reactions else -1 if base in settings.down_reactions else 0
        for user in reaction["users"]:
            if value and user != fake.bot_user_id:
                votes.setdefault(str(user), value)
    return votes


def shown_thread(fake: FakeSlack, ts: str) -> dict[str, str]:
    """The thread's replies by people as the platform shows them: ts -> text."""
    return {
        str(m["ts"]): str(m["text"])
        for m in fake.messages(CHANNEL)
        if m.get("thread_ts") == ts and m["ts"] != ts and m.get("user") != fake.bot_user_id
    }


def shown_counts(fake: FakeSlack, ts: str) -> tuple[str, str]:
    """The vote buttons' texts on the post as Slack shows it."""
    actions = next(b for b in fake.message(CHANNEL, ts)["blocks"] if b["type"] == "actions")
    up, down = (e["text"]["text"] for e in actions["elements"])
    return str(up), str(down)


def redraws(fake: FakeSlack, ts: str) -> int:
    """chat.update calls on the post so far."""
    return sum(1 for c in fake.calls("chat.update") if c.get("ts") == ts)


def rows(url: str, sql: str, *args: object) -> list[tuple[Any, ...]]:
    """Rows read straight from the SQLite file (read-only)."""
    path = url.removeprefix("sqlite:///")
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=10)
    try:
        return [tuple(r) for r in conn.execute(sql, args).fetchall()]
    finally:
        conn.close()


def origins(url: str, ts: str) -> tuple[dict[str, str], dict[str, str]]:
    """user -> origin of the post's live votes, and message id -> origin of its comments."""
    votes = rows(
        url,
        "SELECT v.user_id, v.origin FROM votes v JOIN posts p ON p.id = v.post_id "
        "WHERE p.message_id = ? AND v.value != 0",
        ts,
    )
    comments = rows(
        url,
        "SELECT c.message_id, c.origin FROM comments c JOIN posts p ON p.id = c.post_id "
        "WHERE p.message_id = ? AND NOT c.deleted",
        ts,
    )
    return {str(u): str(o) for u, o in votes}, {str(m): str(o) for m, o in comments}


def add_people(fake: FakeSlack) -> None:
    """The workspace's people who act in these scenarios."""
    for n, user in enumerate(PEOPLE, start=1):
        fake.add_user(user, f"person{n}")


def daily_post(fake: FakeSlack, url: str) -> tuple[str, str]:
    """The post the scheduler made at start, once the archive knows its ts (a reaction to a
    ts it does not know yet is nobody's vote): its ts and its buttons' value."""
    wait_until(
        lambda: rows(url, "SELECT 1 FROM posts WHERE state = 'posted' AND message_id IS NOT NULL"),
        timeout=10,
        what="the daily post",
    )
    [message] = [m for m in fake.messages(CHANNEL) if m.get("metadata")]
    actions = next(b for b in message["blocks"] if b["type"] == "actions")
    return str(message["ts"]), str(actions["elements"][0]["value"])


def comments_of(post: dict[str, object]) -> list[dict[str, object]]:
    """A post's comments from its export entry."""
    comments = post["comments"]
    assert isinstance(comments, list)
    return comments
