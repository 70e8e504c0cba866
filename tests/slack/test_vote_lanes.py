"""One person's votes in the order Slack sent them: Socket Mode's workers would otherwise apply
a reaction taken back a moment after it was added before the add, and the vote would stay
while Slack shows none. Other people's envelopes are not held up by them."""

from __future__ import annotations

import random
import threading
from concurrent.futures import ThreadPoolExecutor

from bot.config.settings import Settings
from bot.slack.lanes import Lanes, lane_of
from tests.fakeslack import FakeSlack, reaction_event
from tests.fakeslack.payloads import event_envelope_payload
from tests.slack.conftest import CHANNEL, Harness, _running


def test_a_lane_runs_in_order_and_lanes_run_side_by_side() -> None:
    rng = random.Random(31)
    seen: dict[str, list[int]] = {}
    lock = threading.Lock()
    side_by_side = threading.Barrier(2, timeout=5)
    with ThreadPoolExecutor(max_workers=4) as pool:
        lanes = Lanes(pool=pool)
        # Two lanes whose first works wait for each other: both must be running at once.
        for lane in ("vote:A", "vote:B"):
            lanes.submit(lane=lane, work=side_by_side.wait)
        for n in range(400):
            lane = rng.choice(("vote:A", "vote:B", "vote:C", None))

            def work(lane: str | None = lane, n: int = n) -> None:
                with lock:
                    seen.setdefault(str(lane), []).append(n)

            lanes.submit(lane=lane, work=work)
    for lane in ("vote:A", "vote:B", "vote:C"):
        assert seen[lane] == sorted(seen[lane]) and seen[lane]
    assert sum(len(v) for v in seen.values()) == 400


def test_the_lane_of_an_envelope() -> None:
    added = event_envelope_payload(
        reaction_event(user="U1", reaction="+1", channel="C1", item_ts="1.0")
    )
    assert lane_of(message={"type": "events_api", "payload": added}) == "vote:U1"
    click = {"type": "block_actions", "user": {"id": "U1"}}
    assert lane_of(message={"type": "interactive", "payload": click}) == "vote:U1"
    assert lane_of(message={"type": "slash_commands", "payload": {"user_id": "U1"}}) is None
    assert (
        lane_of(message={"type": "events_api", "payload": {"event": {"type": "message"}}}) is None
    )


def test_added_and_taken_back_at_once_leaves_no_vote(
    fake: FakeSlack, settings: Settings, sqlite_url: str
) -> None:
    for harness in _running(mode="socket", fake=fake, settings=settings, url=sqlite_url):
        ts, _ = harness.daily_post()
        envelopes = []
        for n in range(60):
            user = f"U{n:04d}"
            for removed in (False, True):
                event = reaction_event(
                    user=user, reaction="+1", channel=CHANNEL, item_ts=ts, removed=removed
                )
                envelopes.append(fake.push("events_api", event_envelope_payload(event)))
        for envelope in envelopes:
            fake.wait_ack(envelope, timeout=10)
        _no_votes(harness)


def _no_votes(harness: Harness) -> None:
    """Nobody's reaction is left, so nobody's vote is."""
    with harness.bot.database.engine.connect() as connection:
        left = connection.exec_driver_sql("SELECT user_id FROM votes").all()
    assert left == []
