"""One person's votes in the order Slack sent them. Socket Mode's reader hands each envelope
to a pool of workers, which would apply a reaction added and taken back a millisecond later
in either order (the vote would then stay while Slack shows none). Envelopes of one lane (one
person's clicks and reactions) run one at a time, in order; every other envelope runs at once.
HTTP mode has no such order to keep: Slack sends its requests concurrently."""

from __future__ import annotations

import json
import logging
import threading
from collections import deque
from collections.abc import Callable
from concurrent.futures import Executor
from typing import Any

log = logging.getLogger(__name__)

VOTING_EVENTS = frozenset({"reaction_added", "reaction_removed"})


def lane_of(*, message: dict[str, Any]) -> str | None:
    """The lane of a Socket Mode envelope: a person's reactions and button clicks share one;
    anything else has none."""
    payload = message.get("payload") or {}
    if message.get("type") == "events_api":
        event = payload.get("event") or {}
        if event.get("type") in VOTING_EVENTS and event.get("user"):
            return f"vote:{event['user']}"
    elif message.get("type") == "interactive" and payload.get("type") == "block_actions":
        user = (payload.get("user") or {}).get("id")
        return f"vote:{user}" if user else None
    return None


def route(
    *,
    raw: str,
    lanes: Lanes,
    reconnect: Callable[[], None],
    run: Callable[[dict[str, Any], str], None],
) -> None:
    """One frame, as slack_sdk's client routes it (a disconnect frame reconnects, the rest go
    to the listeners on the workers; a frame that is no JSON object is an empty message), with
    one person's votes kept in their lane."""
    found = json.loads(raw) if raw.startswith("{") else {}
    message: dict[str, Any] = found if isinstance(found, dict) else {}
    if message.get("type") == "disconnect":
        reconnect()
        return
    lanes.submit(lane=lane_of(message=message), work=lambda: run(message, raw))


class Lanes:
    """Runs work on `pool`, one lane's work one at a time in submission order."""

    def __init__(self, *, pool: Executor) -> None:
        """Nothing queued yet."""
        self._pool = pool
        self._queues: dict[str, deque[Callable[[], None]]] = {}
        self._lock = threading.Lock()

    def submit(self, *, lane: str | None, work: Callable[[], None]) -> None:
        """Run `work` on the pool now, or after its lane's earlier work."""
        if lane is None:
            self._pool.submit(work)
            return
        with self._lock:
            queue = self._queues.get(lane)
            if queue is not None:  # a drain of this lane is under way: it takes this too
                queue.append(work)
                return
            self._queues[lane] = deque([work])
        self._pool.submit(self._drain, lane)

    def _drain(self, lane: str) -> None:
        """Run the lane's work until its queue is empty, then forget the lane."""
        while True:
            with self._lock:
                queue = self._queues[lane]
                if not queue:
                    del self._queues[lane]
                    return
                work = queue.popleft()
            try:
                work()
            except Exception:  # the listeners log their own; one failure never stops the lane
                log.exception("a Socket Mode envelope failed in lane %s", lane)
