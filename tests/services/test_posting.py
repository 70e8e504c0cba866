"""The daily post: on time, once per channel and local date, whatever fails in between."""

from __future__ import annotations

import threading
from dataclasses import replace
from datetime import UTC, date, datetime, time, timedelta

from bot.db.database import Database
from bot.domain import PaperStatus, Schedule
from bot.messages import as_plain
from bot.services.delivery import POST_ATTEMPTS
from bot.services.posting import LEASE, Outcome, Poster, post_due, post_today
from bot.services.schedule import is_due, next_post_at
from bot.wording import archive
from tests.conftest import SAMPLE_QUEUED
from tests.services.conftest import WEEKDAYS, follow, key, load_sample, make_poster
from tests.services.memory_chat import MemoryChat

# Monday 5 Jan 2026: 08:00 UTC is 09:00 in Berlin.
MONDAY_0900_BERLIN = datetime(2026, 1, 5, 8, 0, tzinfo=UTC)
C1 = key("C1")


def test_posts_at_the_scheduled_time_once(database: Database, chat: MemoryChat) -> None:
    load_sample(database)
    follow(database)
    poster = make_poster(database, chat)
    before = post_today(poster=poster, channel=C1, now=MONDAY_0900_BERLIN - timedelta(minutes=1))
    assert before.outcome is Outcome.NOT_DUE and chat.count("C1") == 0
    first = post_today(poster=poster, channel=C1, now=MONDAY_0900_BERLIN)
    assert first.outcome is Outcome.POSTED and chat.count("C1") == 1
    again = post_today(poster=poster, channel=C1, now=MONDAY_0900_BERLIN + timedelta(hours=3))
    assert again.outcome is Outcome.ALREADY and chat.count("C1") == 1
    card = chat.posts["C1"][0]
    assert card.local_date == date(2026, 1, 5) and card.remaining == SAMPLE_QUEUED - 1
    with database(write=False) as store:
        assert store.paper(paper_id=card.paper.id).status is PaperStatus.POSTED  # type: ignore[union-attr]


def test_next_day_posts_the_next_paper_with_a_recap(database: Database, chat: MemoryChat) -> None:
    load_sample(database)
    follow(database)
    poster = make_poster(database, chat)
    post_today(poster=poster, channel=C1, now=MONDAY_0900_BERLIN)
    post_today(poster=poster, channel=C1, now=MONDAY_0900_BERLIN + timedelta(days=1))
    first, second = chat.posts["C1"]
    assert first.paper.id != second.paper.id
    assert second.recap is not None and second.recap.title == first.paper.title


def test_weekend_and_paused_channels_get_nothing(database: Database, chat: MemoryChat) -> None:
    load_sample(database)
    follow(database)
    poster = make_poster(database, chat)
    saturday = MONDAY_0900_BERLIN - timedelta(days=2)
    assert post_today(poster=poster, channel=C1, now=saturday).outcome is Outcome.NOT_DUE
    with database() as store:
        channel = store.channel(key=C1)
        assert channel is not None
        store.set_channel_flags(channel=channel, paused=True)
    assert post_today(poster=poster, channel=C1, now=MONDAY_0900_BERLIN).outcome is Outcome.PAUSED
    assert chat.count("C1") == 0


def test_catch_up_same_day_but_never_a_past_day(database: Database, chat: MemoryChat) -> None:
    load_sample(database)
    follow(database)
    poster = make_poster(database, chat)
    # The bot was down at 09:00 Monday and starts at 22:00 Berlin: still Monday, so it posts.
    results = post_due(poster=poster, now=MONDAY_0900_BERLIN + timedelta(hours=13))
    assert results[C1].outcome is Outcome.POSTED
    # Down all Tuesday, back on Wednesday 08:00 Berlin (before post time): Tuesday stays missed.
    wednesday_early = MONDAY_0900_BERLIN + timedelta(days=2, hours=-1)
    assert post_due(poster=poster, now=wednesday_early)[C1].outcome is Outcome.NOT_DUE
    assert [c.local_date for c in chat.posts["C1"]] == [date(2026, 1, 5)]


def test_empty_queue_is_said_once(database: Database, chat: MemoryChat) -> None:
    follow(database)
    poster = make_poster(database, chat)
    for hours in (0, 1, 24):
        result = post_today(
            poster=poster, channel=C1, now=MONDAY_0900_BERLIN + timedelta(hours=hours)
        )
        assert result.outcome is Outcome.EMPTY
    assert chat.notices["C1"] == [as_plain(message=archive.EMPTY_QUEUE)]


def test_refused_post_returns_the_paper_to_the_queue(database: Database, chat: MemoryChat) -> None:
    load_sample(database)
    follow(database)
    poster = make_poster(database, chat)
    chat.fail_next(code="not_in_channel", posted_nothing=True)
    failed = post_today(poster=poster, channel=C1, now=MONDAY_0900_BERLIN)
    assert (
        failed.outcome is Outcome.FAILED and failed.error and failed.error.code == "not_in_channel"
    )
    with database(write=False) as store:
        assert (
            store.count_queued(workspace=C1.workspace_key, channel=store.channel(key=C1))
            == SAMPLE_QUEUED
        )
    later = post_today(poster=poster, channel=C1, now=MONDAY_0900_BERLIN + timedelta(minutes=5))
    assert later.outcome is Outcome.POSTED and chat.count("C1") == 1


def test_crash_after_slack_stored_it_is_recovered_not_doubled(
    database: Database, chat: MemoryChat
) -> None:
    load_sample(database)
    follow(database)
    # The message lands, then the answer is lost (a 500, a timeout, or kill -9 before commit),
    # and history cannot be read before the process dies: the outcome stays unknown.
    chat.fail_next(code="http_500", posted_nothing=False, after_effect=True)
    chat.fail_lookups(code="ratelimited")
    dead = make_poster(database, chat, owner="host:1:dead")
    assert post_today(poster=dead, channel=C1, now=MONDAY_0900_BERLIN).outcome is Outcome.FAILED
    assert chat.count("C1") == 1
    restarted = make_poster(database, chat, owner="host:2:new")
    result = post_today(poster=restarted, channel=C1, now=MONDAY_0900_BERLIN + timedelta(minutes=1))
    assert result.outcome is Outcome.RECOVERED and chat.count("C1") == 1
    with database(write=False) as store:
        channel = store.channel(key=C1)
        assert channel is not None
        post = store.post_on(channel=channel, local_date=date(2026, 1, 5))
        assert post is not None and post.message_id is not None


def test_crash_before_slack_call_posts_on_restart(database: Database, chat: MemoryChat) -> None:
    load_sample(database)
    follow(database)
    # The intent is recorded and the process dies before calling Slack (every attempt fails).
    chat.fail_next(code="connection_error", posted_nothing=False, times=POST_ATTEMPTS)
    post_today(
        poster=make_poster(database, chat, owner="host:1:dead"),
        channel=C1,
        now=MONDAY_0900_BERLIN,
    )
    assert chat.count("C1") == 0
    result = post_today(
        poster=make_poster(database, chat, owner="host:2:new"),
        channel=C1,
        now=MONDAY_0900_BERLIN + timedelta(minutes=1),
    )
    assert result.outcome is Outcome.POSTED and chat.count("C1") == 1


def test_a_live_claim_is_left_alone_until_its_lease_ends(
    database: Database, chat: MemoryChat
) -> None:
    load_sample(database)
    follow(database)
    chat.fail_next(code="connection_error", posted_nothing=False, times=POST_ATTEMPTS)
    post_today(
        poster=make_poster(database, chat, owner="host:1:a"),
        channel=C1,
        now=MONDAY_0900_BERLIN,
    )
    alive = replace(make_poster(database, chat, owner="host:2:b"), owner_alive=lambda _o: True)
    assert (
        post_today(poster=alive, channel=C1, now=MONDAY_0900_BERLIN + timedelta(seconds=30)).outcome
        is Outcome.BUSY
    )
    late = MONDAY_0900_BERLIN + LEASE + timedelta(seconds=1)
    assert post_today(poster=alive, channel=C1, now=late).outcome is Outcome.POSTED
    assert chat.count("C1") == 1


def test_two_processes_racing_post_once(sqlite_url: str) -> None:
    chat = MemoryChat()
    databases = [Database(url=sqlite_url) for _ in range(4)]
    try:
        load_sample(databases[0])
        follow(databases[0])
        # Every racer is alive: nobody may take another's claim over.
        posters = [
            replace(make_poster(db, chat, owner=f"host:{n}:x"), owner_alive=lambda _o: True)
            for n, db in enumerate(databases)
        ]
        barrier = threading.Barrier(len(posters))
        outcomes: list[Outcome] = []

        def race(poster: Poster) -> None:
            barrier.wait()
            outcomes.append(post_today(poster=poster, channel=C1, now=MONDAY_0900_BERLIN).outcome)

        threads = [threading.Thread(target=race, args=(p,)) for p in posters]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        for db in databases:
            db.dispose()
    assert chat.count("C1") == 1
    assert sorted(outcomes).count(Outcome.POSTED) == 1


def test_dst_spring_forward_posts_once() -> None:
    # 02:30 does not exist in New York on 8 Mar 2026; the post goes out at 03:00 instead.
    schedule = Schedule(
        post_time=time(2, 30), timezone="America/New_York", weekdays=frozenset(range(1, 8))
    )
    instants = [
        datetime(2026, 3, 8, 6, 0, tzinfo=UTC) + timedelta(minutes=m) for m in range(0, 240, 5)
    ]
    due = [t for t in instants if is_due(schedule=schedule, now=t) == date(2026, 3, 8)]
    assert due and due[0] == datetime(2026, 3, 8, 7, 0, tzinfo=UTC)  # 03:00 EDT


def test_dst_fall_back_twice_seen_time_is_one_date(database: Database, chat: MemoryChat) -> None:
    load_sample(database)
    schedule = Schedule(
        post_time=time(1, 30), timezone="America/New_York", weekdays=frozenset(range(1, 8))
    )
    follow(database, schedule=schedule)
    poster = make_poster(database, chat)
    first = datetime(2026, 11, 1, 5, 30, tzinfo=UTC)  # 01:30 EDT
    second = datetime(2026, 11, 1, 6, 30, tzinfo=UTC)  # 01:30 EST, the same wall time again
    assert post_today(poster=poster, channel=C1, now=first).outcome is Outcome.POSTED
    assert post_today(poster=poster, channel=C1, now=second).outcome is Outcome.ALREADY
    assert chat.count("C1") == 1


def test_next_post_at_for_replies() -> None:
    now = MONDAY_0900_BERLIN - timedelta(hours=1)
    assert next_post_at(schedule=WEEKDAYS, now=now, posted_today=False).date() == date(2026, 1, 5)
    friday = MONDAY_0900_BERLIN + timedelta(days=4, hours=2)
    nxt = next_post_at(schedule=WEEKDAYS, now=friday, posted_today=True)
    assert nxt.date() == date(2026, 1, 12) and nxt.time() == time(9, 0)
