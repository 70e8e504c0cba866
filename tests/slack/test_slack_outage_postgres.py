"""Issue 30 on PostgreSQL: a vote while the archive cannot write is answered "not saved" in
time, and an event refused then is stored exactly once when Slack retries it.

The archive is made unwritable for real: another connection of the test holds an EXCLUSIVE
lock on the votes table (reads still pass, writes wait), as a long migration or a stuck
transaction would. The bot's bounded wait for its row locks (`lock_timeout`) must end
before Slack's. The Slack side and the assertions are those of the SQLite tests
(tests/slack/test_slack_outage.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace

import pytest
from sqlalchemy import create_engine, text

from bot.config.settings import Settings
from bot.messages import as_plain
from bot.slack import ids
from bot.wording import replies
from tests.fakeslack import FakeSlack, event_envelope_payload, reaction_event
from tests.slack.conftest import CHANNEL, MEMBER, Harness, _running
from tests.slack.test_slack_outage import SLACK_WAITS, VOTES, _click, _deliver

pytestmark = pytest.mark.postgres

# Only the votes table: the event's processed-events row is written before the vote and must
# go with it, so the counts below also check that the refused unit was rolled back whole.
LOCKED = ("votes",)


@pytest.fixture(params=["socket", "http"])
def pg_harness(
    request: pytest.FixtureRequest, fake: FakeSlack, settings: Settings, postgres_url: str
) -> Iterator[Harness]:
    """The bot running in Socket Mode or HTTP mode on a PostgreSQL database of its own."""
    on_pg = replace(settings, database_url=postgres_url)
    yield from _running(mode=request.param, fake=fake, settings=on_pg, url=postgres_url)


def _count(harness: Harness, sql: str) -> int:
    """One number read by a connection of the test's own."""
    engine = create_engine(harness.settings.database_url)
    try:
        with engine.connect() as connection:
            return int(connection.execute(text(sql)).scalar_one())
    finally:
        engine.dispose()


@contextmanager
def _lock_held(harness: Harness) -> Iterator[None]:
    """The votes table locked against writes by another connection until the block ends
    (rolled back, and the connection closed, however the block ends)."""
    engine = create_engine(harness.settings.database_url)
    try:
        with engine.connect() as holder:  # closing it rolls the transaction back
            for table in LOCKED:
                holder.execute(text(f"LOCK TABLE {table} IN EXCLUSIVE MODE NOWAIT"))
            yield
    finally:
        engine.dispose()


def test_a_vote_while_the_lock_is_held_is_answered_in_time_and_not_stored(
    pg_harness: Harness,
) -> None:
    harness = pg_harness
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
    pg_harness: Harness,
) -> None:
    harness = pg_harness
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
