"""Issue 31 under Slack's limits for apps outside the Marketplace (conversations.replies: one
call a window, 15 messages a page): a week of posts with threads of two pages each is read back
in the background while a vote and a reply arriving meanwhile are stored and redrawn at once,
and the day's post goes out on time."""

from __future__ import annotations

import time
from dataclasses import replace
from datetime import timedelta

from bot.config.settings import Settings
from bot.db.database import Database
from bot.services import posting, reconcile_admin
from tests.fakeslack import FakeSlack
from tests.services.conftest import load_sample
from tests.slack.conftest import CHANNEL, KEY, MONDAY_9, FakeClock
from tests.slack.reconcile_support import (
    TickingClock,
    export_post,
    reconciled_since,
    redraws,
    rows,
    running,
    shown_counts,
    shown_thread,
    wait_until,
)
from tests.wired import build_slack_bot

REPLIES = 20  # 14 a page beside the parent: two pages a thread
ON_TIME = 3.0  # seconds: Slack's own deadline for an answer, and what people notice


def _last_week(fake: FakeSlack, settings: Settings, url: str) -> list[str]:
    """Monday to Friday of the week before, posted by the bot, each thread written while no
    bot listened; the posts' ts, oldest first."""
    database = Database(url=url)
    load_sample(database)
    try:
        for days in range(7, 2, -1):
            # Two hours late (a catch-up): last Monday stays inside the 7-day window.
            clock = FakeClock(MONDAY_9 - timedelta(days=days, hours=-2))
            bot = build_slack_bot(settings=settings, database=database, clock=clock, mode="socket")
            try:
                posting.post_due(poster=bot.poster, now=clock.now())
            finally:
                bot.close()
    finally:
        database.dispose()
    posts = [str(m["ts"]) for m in fake.messages(CHANNEL) if m.get("metadata")]
    assert len(posts) == 5
    for ts in posts:
        for n in range(REPLIES):
            fake.people.reply(f"U0W{n:03d}", CHANNEL, ts, f"reply {n} on {ts}")
        fake.people.react("U0W001", CHANNEL, ts, "+1")
    return posts


def test_a_week_read_back_slowly_while_events_and_the_daily_post_are_served_at_once(
    fake: FakeSlack, settings: Settings, sqlite_url: str
) -> None:
    week = _last_week(fake, settings, sqlite_url)
    fake.limits.non_marketplace(1)  # one conversations.replies a second: tests' minute
    limited = replace(settings, slack_history_limits="non-marketplace")
    clock = TickingClock(MONDAY_9)
    started = time.monotonic()
    with running(fake=fake, settings=limited, url=sqlite_url, clock=clock, mode="socket") as s:
        bot = s.bot
        today = wait_until(
            lambda: len([m for m in fake.messages(CHANNEL) if m.get("metadata")]) == 6,
            timeout=10,
            what="today's post",
        ) + (time.monotonic() - started)
        [status] = reconcile_admin.statuses(uow=bot.database, channels=[KEY])
        assert status.finished_at is None, "the read-back was over before the day's post"
        assert today < ON_TIME
        wait_until(
            lambda: rows(
                sqlite_url,
                "SELECT 1 FROM posts WHERE message_id IS NOT NULL AND local_date = '2026-01-05'",
            ),
            timeout=5,
            what="today's post stored",
        )
        # Meanwhile people vote and reply on last Monday's post; the read is still going.
        monday = week[0]
        before = redraws(fake, monday)
        acted = time.monotonic()
        reacted = fake.people.react("U0LIVE", CHANNEL, monday, "+1")
        assert reacted is not None and reacted.via == "socket_mode"
        reply = fake.people.reply("U0LIVE", CHANNEL, monday, "heard at once")
        assert reply.via == "socket_mode"
        stored = wait_until(
            lambda: (
                rows(sqlite_url, "SELECT 1 FROM comments WHERE message_id = ?", reply.ts)
                and rows(sqlite_url, "SELECT 1 FROM votes WHERE user_id = 'U0LIVE'")
            ),
            timeout=ON_TIME,
            what="the live vote and reply stored",
        )
        redrawn = wait_until(
            lambda: redraws(fake, monday) > before, timeout=ON_TIME, what="the live redraw"
        )
        assert time.monotonic() - acted < ON_TIME and stored < ON_TIME
        assert not reconciled_since(bot, MONDAY_9), "the read-back was over before the events"
        wait_until(lambda: reconciled_since(bot, MONDAY_9), timeout=40, what="the read-back")
        assert bot.coalescer.drain()
        for ts in week:
            post = export_post(bot.database, ts)
            assert {c["message_id"]: c["text"] for c in post["comments"]} == shown_thread(fake, ts)
        assert export_post(bot.database, monday)["votes"] == {"up": 2, "down": 0}
        assert shown_counts(fake, monday) == ("👍 2", "👎 0")
    pages = fake.requests("conversations.replies")
    assert {c.params.get("limit") for c in pages} == {"15"}
    # The limit was kept: no two answered calls closer than the window, 429s waited out.
    answered = [c for c in pages if c.status == 200]
    assert len(answered) >= 2 * len(week)
    print(f"today's post after {today:.2f} s, live stored {stored:.2f} s, redrawn {redrawn:.2f} s")
