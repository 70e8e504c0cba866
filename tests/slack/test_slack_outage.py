"""Issue 30: nothing lost, nothing silent when the archive cannot write (Socket Mode and HTTP).

The archive is made unwritable for real: its SQLite file's write lock held by another
connection, or the bot's own connections made read-only or size-capped by a hook of the test
(`query_only`, `max_page_count`: SQLite's own refusals, as a read-only file or a full disk
gives them).
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import event

from bot.messages import as_plain
from bot.slack import ids
from bot.wording import replies
from tests.fakeslack import (
    block_actions_payload,
    event_body,
    event_envelope_payload,
    interactive_body,
    message_event,
    reaction_event,
)
from tests.slack.conftest import CHANNEL, MEMBER, Harness, shown_mrkdwn

SLACK_WAITS = 3.0  # seconds: Slack's deadline for an ack


def _path(harness: Harness) -> str:
    """The SQLite file the bot writes to."""
    return harness.settings.database_url.removeprefix("sqlite:///")


def _count(harness: Harness, sql: str) -> int:
    """One number read by a connection of the test's own."""
    with sqlite3.connect(_path(harness)) as connection:
        return int(connection.execute(sql).fetchone()[0])


@contextmanager
def _lock_held(harness: Harness) -> Iterator[None]:
    """The file's write lock held by another connection until the block ends."""
    holder = sqlite3.connect(_path(harness), isolation_level=None)
    try:
        holder.execute("BEGIN IMMEDIATE")
        yield
        holder.execute("ROLLBACK")
    finally:
        holder.close()


@contextmanager
def _connections_say(harness: Harness, pragma: str) -> Iterator[None]:
    """Every new connection of the bot runs `pragma` (after the bot's own pragmas) until the
    block ends; the pooled ones are dropped at either end."""
    engine = harness.bot.database.engine

    def refuse(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.execute(pragma)

    event.listen(engine, "connect", refuse)
    engine.dispose()
    try:
        yield
    finally:
        event.remove(engine, "connect", refuse)
        engine.dispose()


class _Signal(logging.Handler):
    """Set when a record reaches the logger it is attached to (an event not stored)."""

    def __init__(self) -> None:
        super().__init__(level=logging.WARNING)
        self.seen = threading.Event()
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())
        self.seen.set()


@contextmanager
def _not_stored_signal() -> Iterator[_Signal]:
    """The Slack edge's log line for an event it left unacknowledged."""
    signal, logger = _Signal(), logging.getLogger("bot.slack.listeners.outage")
    logger.addHandler(signal)
    try:
        yield signal
    finally:
        logger.removeHandler(signal)


def _deliver(harness: Harness, payload: dict[str, Any], *, retry: int = 0) -> bool:
    """Deliver an event envelope as this mode does; whether Slack would count it handled.
    HTTP: a 2xx (a 503 is not). Socket Mode: an ack, waited for, unless the edge's "not
    stored" line comes first (the envelope is then never acked: the retry test checks)."""
    if harness.mode == "socket":
        with _not_stored_signal() as refused:
            envelope = harness.fake.push(
                "events_api", payload, retry_attempt=retry, retry_reason="timeout" if retry else ""
            )
            acked = threading.Event()

            def wait_ack() -> None:
                """Sets `acked` on the ack; either way wakes the wait below."""
                try:
                    harness.fake.wait_ack(envelope, timeout=10)
                    acked.set()
                except TimeoutError:
                    pass  # no ack: the edge's line has said why, or the assert below fails
                finally:
                    refused.seen.set()

            threading.Thread(target=wait_ack, daemon=True).start()
            assert refused.seen.wait(15)
            if refused.lines:
                return False
            assert acked.is_set()
            return True
    retry_fields: dict[str, Any] = {"retry_num": retry, "retry_reason": "http_timeout"}
    # Slack retries seconds to minutes later: a new timestamp, so a new signature.
    stamp = int(time.time()) + retry
    body = event_body(payload, **(retry_fields if retry else {}))
    status, _ = harness.post(body, timestamp=stamp)
    assert status in (200, 503), status
    return status == 200


def _click(harness: Harness, *, ts: str, value: str, channel: str = CHANNEL) -> tuple[float, str]:
    """Click 👍 as MEMBER in `channel`; (seconds until Slack had its ack, what only the
    clicker was told through the response_url)."""
    url = harness.fake.new_response_url()
    payload = block_actions_payload(
        ids.VOTE_UP,
        value,
        user_id=MEMBER,
        message_ts=ts,
        channel_id=channel,
        response_url=url,
    )
    started = time.monotonic()
    if harness.mode == "socket":
        harness.fake.wait_ack(harness.fake.push("interactive", payload), timeout=10)
    else:
        assert harness.post(interactive_body(payload))[0] == 200
    took = time.monotonic() - started
    return took, shown_mrkdwn(harness.fake.wait_response(url, timeout=5))


VOTES = "SELECT count(*) FROM votes"


def test_a_vote_while_the_lock_is_held_is_answered_in_time_and_not_stored(
    harness: Harness,
) -> None:
    ts, value = harness.daily_post()
    with _lock_held(harness):
        took, told = _click(harness, ts=ts, value=value)
    assert took < SLACK_WAITS
    assert told == as_plain(message=replies.VOTE_NOT_SAVED)
    assert _count(harness, VOTES) == 0
    # Once the lock is free the same person's next click counts.
    harness.click(ids.VOTE_UP, user=MEMBER, message_ts=ts, value=value)
    assert _count(harness, VOTES) == 1


def test_a_reaction_refused_while_locked_is_stored_once_when_slack_retries(
    harness: Harness,
) -> None:
    ts, _ = harness.daily_post()
    payload = event_envelope_payload(
        reaction_event(user=MEMBER, reaction="+1", channel=CHANNEL, item_ts=ts)
    )
    with _lock_held(harness):
        assert not _deliver(harness, payload)
    assert _count(harness, VOTES) == 0
    assert _count(harness, "SELECT count(*) FROM processed_events") == 0
    assert _deliver(harness, payload, retry=1)  # the lock is gone: the retry is taken
    assert _deliver(harness, payload, retry=2)  # a late retry changes nothing
    assert _count(harness, VOTES) == 1
    assert _count(harness, "SELECT count(*) FROM processed_events") == 1
    if harness.mode == "socket":  # the refused delivery was never acknowledged, its retries were
        acked = {str(ack["envelope_id"]) for ack in harness.fake.socket_mode.acks()}
        ours = [
            str(envelope["envelope_id"])
            for envelope in harness.fake.socket_mode.envelopes()
            if (envelope.get("payload") or {}).get("event_id") == payload["event_id"]
        ]
        assert [envelope in acked for envelope in ours] == [False, True, True]


def test_a_read_only_archive_answers_clearly_never_a_500(harness: Harness) -> None:
    ts, value = harness.daily_post()
    with _connections_say(harness, "PRAGMA query_only=ON"):
        took, told = _click(harness, ts=ts, value=value)
        assert took < SLACK_WAITS and "Your vote was not saved" in told
        said = harness.command("add A paper typed by hand while the disk was read-only")
        assert "was not saved" in said and "Try again in a minute" in said
        reply = message_event(
            channel=CHANNEL, user=MEMBER, text="a comment nobody may lose", thread_ts=ts
        )
        assert not _deliver(harness, event_envelope_payload(reply))
    assert _count(harness, VOTES) == 0
    assert _count(harness, "SELECT count(*) FROM comments") == 0
    assert _count(harness, "SELECT count(*) FROM papers WHERE title LIKE 'A paper typed%'") == 0


def test_a_full_disk_leaves_a_long_comment_for_the_retry(harness: Harness) -> None:
    ts, _ = harness.daily_post()
    pages = _count(harness, "PRAGMA page_count")
    long = "🙂 <!channel> *bold* " * 500  # ~10,000 characters: it needs pages of its own
    payload = event_envelope_payload(
        message_event(channel=CHANNEL, user=MEMBER, text=long, thread_ts=ts)
    )
    with _connections_say(harness, f"PRAGMA max_page_count={pages}"):
        assert not _deliver(harness, payload)
    assert _count(harness, "SELECT count(*) FROM comments") == 0
    assert _deliver(harness, payload, retry=1)
    assert _count(harness, "SELECT count(*) FROM comments") == 1


def test_a_click_carrying_another_channels_post_stores_no_vote(harness: Harness) -> None:
    harness.fake.add_channel("C0PUBLIC", "random")
    ts, value = harness.daily_post()  # the post of CHANNEL (which could be private)
    took, told = _click(harness, ts=ts, value=value, channel="C0PUBLIC")
    assert took < SLACK_WAITS
    assert "does not belong to this channel" in told
    assert _count(harness, VOTES) == 0
