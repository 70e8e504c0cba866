"""Issue 3's scenarios, in Socket Mode and HTTP mode: the post on schedule, exactly once."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo

from bot.domain import Channel, ChannelKey, Schedule
from bot.runtime.scheduler import channel_trigger
from bot.services import posting
from bot.slack import ids
from tests.fakeslack import FakeSlack
from tests.services.conftest import load_sample
from tests.slack.conftest import ADMIN, CHANNEL, KEY, MEMBER, MONDAY_9, FakeClock, Harness
from tests.wired import SlackBot


def test_post_arrives_at_the_scheduled_time(harness: Harness) -> None:
    harness.clock.at = MONDAY_9 - timedelta(minutes=1)
    assert harness.sweep()[KEY].outcome is posting.Outcome.NOT_DUE
    assert harness.posts() == []
    harness.clock.at = MONDAY_9
    assert harness.sweep()[KEY].outcome is posting.Outcome.POSTED
    [message] = harness.posts()
    assert message["metadata"]["event_type"] == ids.METADATA_EVENT_TYPE
    assert message["metadata"]["event_payload"]["date"] == "2026-01-05"
    assert message["text"]
    assert any(b["type"] == "header" for b in message["blocks"])
    actions = [b for b in message["blocks"] if b["type"] == "actions"]
    assert [e["action_id"] for e in actions[0]["elements"]] == [ids.VOTE_UP, ids.VOTE_DOWN]
    # Every later sweep that day finds the post and does nothing.
    harness.clock.at = MONDAY_9 + timedelta(hours=5)
    assert harness.sweep()[KEY].outcome is posting.Outcome.ALREADY
    assert len(harness.posts()) == 1


def test_restart_and_second_replica_do_not_double(
    harness: Harness, make_bot: Callable[..., SlackBot]
) -> None:
    harness.sweep()
    restarted = make_bot(clock=FakeClock(MONDAY_9 + timedelta(minutes=30)))
    assert (
        posting.post_due(poster=restarted.poster, now=MONDAY_9 + timedelta(minutes=30))[KEY].outcome
        is posting.Outcome.ALREADY
    )
    assert len(harness.posts()) == 1


def test_two_replicas_at_post_time_post_once(
    fake: FakeSlack, make_bot: Callable[..., SlackBot]
) -> None:
    bots = [make_bot() for _ in range(2)]
    load_sample(bots[0].database)
    barrier = threading.Barrier(2)
    outcomes: list[posting.Outcome] = []

    def at_nine(bot: SlackBot) -> None:
        barrier.wait()
        outcomes.append(posting.post_due(poster=bot.poster, now=MONDAY_9)[KEY].outcome)

    threads = [threading.Thread(target=at_nine, args=(b,)) for b in bots]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert outcomes.count(posting.Outcome.POSTED) == 1
    assert len([m for m in fake.messages(CHANNEL) if m.get("metadata")]) == 1


def test_catch_up_on_start_and_never_back_fill(
    fake: FakeSlack, make_bot: Callable[..., SlackBot]
) -> None:
    bot = make_bot()
    load_sample(bot.database)
    evening = MONDAY_9 + timedelta(hours=12)  # 21:00 Berlin: the bot was down at 09:00
    assert posting.post_due(poster=bot.poster, now=evening)[KEY].outcome is posting.Outcome.POSTED
    wednesday_8 = MONDAY_9 + timedelta(days=2, hours=-1)  # Tuesday was missed entirely
    assert (
        posting.post_due(poster=bot.poster, now=wednesday_8)[KEY].outcome is posting.Outcome.NOT_DUE
    )
    assert len([m for m in fake.messages(CHANNEL) if m.get("metadata")]) == 1


def test_post_that_reached_slack_before_a_crash_is_found_in_history(
    fake: FakeSlack, make_bot: Callable[..., SlackBot]
) -> None:
    crashed = make_bot()
    load_sample(crashed.database)
    # Slack stores the message, then every answer is lost: the poster gives up, row pending.
    fake.fail_next("chat.postMessage", status=500, after_effect=True, times=1)
    # One history look-up, with its two server-error retries, fails too.
    fake.fail_next("conversations.history", status=500, times=3)
    result = posting.post_due(poster=crashed.poster, now=MONDAY_9)[KEY]
    assert result.outcome is posting.Outcome.FAILED
    restarted = make_bot()
    later = MONDAY_9 + posting.LEASE + timedelta(seconds=1)
    recovered = posting.post_due(poster=restarted.poster, now=later)[KEY]
    assert recovered.outcome is posting.Outcome.RECOVERED
    assert len([m for m in fake.messages(CHANNEL) if m.get("metadata")]) == 1


def test_rate_limit_and_server_errors_are_retried(
    fake: FakeSlack, make_bot: Callable[..., SlackBot]
) -> None:
    bot = make_bot()
    load_sample(bot.database)
    fake.fail_next("chat.postMessage", status=429, retry_after=1)
    fake.fail_next("chat.postMessage", status=500)
    assert posting.post_due(poster=bot.poster, now=MONDAY_9)[KEY].outcome is posting.Outcome.POSTED
    assert len([m for m in fake.messages(CHANNEL) if m.get("metadata")]) == 1
    assert len(fake.calls("chat.postMessage")) == 3


def test_server_error_after_the_message_landed_is_not_doubled(
    fake: FakeSlack, make_bot: Callable[..., SlackBot]
) -> None:
    bot = make_bot()
    load_sample(bot.database)
    fake.fail_next("chat.postMessage", status=500, after_effect=True)
    assert posting.post_due(poster=bot.poster, now=MONDAY_9)[KEY].outcome is posting.Outcome.POSTED
    assert len([m for m in fake.messages(CHANNEL) if m.get("metadata")]) == 1


def test_channel_errors_are_reported_and_other_channels_go_on(
    fake: FakeSlack, make_bot: Callable[..., SlackBot], caplog
) -> None:  # type: ignore[no-untyped-def]
    fake.add_channel("C0OUT", "outside", member=False)
    bot = make_bot()
    load_sample(bot.database)
    with bot.database() as store:
        store.save_channel(
            key=replace(KEY, channel="C0OUT"),
            private=False,
            schedule=Schedule(
                post_time=time(9, 0), timezone="Europe/Berlin", weekdays=frozenset(range(1, 6))
            ),
        )
    results = posting.post_due(poster=bot.poster, now=MONDAY_9)
    assert results[replace(KEY, channel="C0OUT")].outcome is posting.Outcome.FAILED
    assert (
        results[replace(KEY, channel="C0OUT")].error is not None
        and results[replace(KEY, channel="C0OUT")].error.code == "not_in_channel"
    )
    assert results[KEY].outcome is posting.Outcome.POSTED
    assert "invite the bot" in caplog.text
    assert fake.bot_token not in caplog.text


def test_empty_queue_is_told_once(fake: FakeSlack, make_bot: Callable[..., SlackBot]) -> None:
    bot = make_bot()
    for minutes in (0, 1, 60):
        result = posting.post_due(poster=bot.poster, now=MONDAY_9 + timedelta(minutes=minutes))
        assert result[KEY].outcome is posting.Outcome.EMPTY
    notices = [m for m in fake.messages(CHANNEL) if not m.get("metadata")]
    assert len(notices) == 1 and "paperclub import" in notices[0]["text"]


def test_cron_trigger_fires_in_the_channel_time_zone() -> None:
    channel = Channel(
        id=1,
        key=ChannelKey(platform="slack", workspace="T", channel="C"),
        schedule=Schedule(
            post_time=time(9, 0), timezone="Asia/Tokyo", weekdays=frozenset({1, 3, 5})
        ),
    )
    trigger = channel_trigger(channel=channel)
    sunday = datetime(2026, 1, 4, 12, 0, tzinfo=UTC)
    fire = trigger.get_next_fire_time(None, sunday)
    assert fire is not None
    local = fire.astimezone(ZoneInfo("Asia/Tokyo"))
    assert (local.date().isoformat(), local.time()) == ("2026-01-05", time(9, 0))


def test_dst_days_post_exactly_once(fake: FakeSlack, make_bot: Callable[..., SlackBot]) -> None:
    bot = make_bot()
    load_sample(bot.database)
    with bot.database() as store:
        store.save_channel(
            key=KEY,
            private=False,
            schedule=Schedule(
                post_time=time(2, 30), timezone="America/New_York", weekdays=frozenset(range(1, 8))
            ),
        )
    # Spring forward (02:30 never happens) and fall back (01:xx twice): sweep every 10 minutes.
    # Start at local midnight each day (EST then EDT).
    for day in (datetime(2026, 3, 8, 5, 0, tzinfo=UTC), datetime(2026, 11, 1, 4, 0, tzinfo=UTC)):
        for step in range(0, 8 * 60, 10):
            posting.post_due(poster=bot.poster, now=day + timedelta(minutes=step))
    dates = [
        m["metadata"]["event_payload"]["date"] for m in fake.messages(CHANNEL) if m.get("metadata")
    ]
    assert dates == ["2026-03-08", "2026-11-01"]


def test_scheduler_jobs_follow_schedule_changes(harness: Harness) -> None:
    wiring = harness.bot.wiring
    wiring.start(paused=True)  # the jobs are built and rebuilt; none fires
    reply = harness.command("schedule 07:15 Asia/Tokyo daily")
    assert "07:15 Asia/Tokyo" in reply and "every day" in reply
    fire = wiring.scheduler.next_runs()[str(KEY)]
    assert fire is not None
    assert fire.astimezone(ZoneInfo("Asia/Tokyo")).time() == time(7, 15)
    harness.command("pause")
    assert str(KEY) not in wiring.scheduler.next_runs()


def test_admin_commands(harness: Harness) -> None:
    assert "Only Paper Club admins" in harness.command("pause", user=MEMBER)
    assert "Paused" in harness.command("pause")
    assert "already paused" in harness.command("pause")
    assert harness.sweep()[KEY].outcome is posting.Outcome.PAUSED
    assert "Resumed. Next paper: today at 09:00 (Europe/Berlin)" in harness.command("resume")
    skipped = harness.command("skip")
    assert skipped.startswith("Skipped “") and "Next up: “" in skipped
    assert "Posted today's paper" in harness.command("next")
    assert "already has today's paper" in harness.command("next")
    assert len(harness.posts()) == 1
    assert "couldn't read the time" in harness.command("schedule 25:99")
    assert "not a time zone" in harness.command("schedule 09:00 Mars/Base")
    assert "Schedule changed" in harness.command("schedule 10:00 Europe/Paris mon,wed,fri")
    assert "Only Paper Club admins" in harness.command("schedule 10:00", user=MEMBER)


def test_admins_from_settings_override_the_workspace(
    fake: FakeSlack, make_bot: Callable[..., SlackBot]
) -> None:
    from bot.services.admin import is_admin

    bot = make_bot(admins=(MEMBER,))
    here = ChannelKey(platform="slack", workspace=bot.team_id, channel="C0001")
    assert is_admin(channel=here, user=MEMBER, admins=(MEMBER,), chat=bot.chat)
    assert not is_admin(channel=here, user=ADMIN, admins=(MEMBER,), chat=bot.chat)
    assert is_admin(channel=here, user=ADMIN, admins=(), chat=bot.chat)
    assert not is_admin(channel=here, user="U0NOBODY", admins=(), chat=bot.chat)


def test_unknown_and_help(harness: Harness) -> None:
    assert "/paperclub schedule" in harness.command("help")
    # Unknown words are a search; no hits point to help.
    assert "`/paperclub help`" in harness.command("frobnicate now", user=MEMBER)
    assert "Next in the queue" in harness.command("queue", user=MEMBER)


def test_a_command_mentioning_payload_is_answered(harness: Harness) -> None:
    reply = harness.command("payload homology", user=MEMBER, channel_name="payload-team")
    assert "for “payload homology”" in reply
