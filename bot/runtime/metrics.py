"""Prometheus metrics of this process, served at GET /metrics in Prometheus' text format.

One registry of our own (not prometheus_client's global one), so only what is named here is
exported, and a test can read a value without a scrape. The core and the platforms report to
the bot.services.telemetry port (they may not import this module): the wiring that serves the
page makes one PrometheusTelemetry and the club carries it to them (importing this module
changes nothing)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

from bot.services import telemetry

REGISTRY = CollectorRegistry(auto_describe=True)

LEADER = Gauge(
    "paperclub_leader",
    "1 while this process runs the scheduler (the leader), 0 while it stands by.",
    registry=REGISTRY,
)
POSTS = Counter(
    "paperclub_posts",
    "Daily post attempts by outcome (posted, recovered, failed, not_due, ...).",
    ("platform", "outcome"),
    registry=REGISTRY,
)
VOTES = Counter(
    "paperclub_votes",
    "Votes stored, changed or withdrawn, by source (button, reaction, console).",
    ("platform", "source"),
    registry=REGISTRY,
)
COMMENTS = Counter(
    "paperclub_comments",
    "Thread replies kept (new), edited (edit) and deleted (delete).",
    ("platform", "action"),
    registry=REGISTRY,
)
RECONCILED = Counter(
    "paperclub_reconciled",
    "Changes found by reading posts back after events were lost: votes set or withdrawn "
    "(vote), comments kept (new), edited (edit) and deleted (delete).",
    ("platform", "change"),
    registry=REGISTRY,
)
SEARCH_SECONDS = Histogram(
    "paperclub_search_seconds",
    "How long a search took: parsing it and fetching one page.",
    ("platform",),
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0),
    registry=REGISTRY,
)
CHAT_API_ERRORS = Counter(
    "paperclub_chat_api_errors",
    "Error answers of Slack's Web API (its error) and Discord's REST API (its JSON code, or "
    "the HTTP status), retried ones included.",
    ("platform", "code"),
    registry=REGISTRY,
)
EVENT_LAG = Histogram(
    "paperclub_event_lag_seconds",
    "From the platform's timestamp of an event (a click, a message) to our handling it.",
    ("platform",),
    # Slack redelivers an unacknowledged event after about 1, 5 and 30 minutes.
    buckets=(0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0, 900.0, 1800.0),
    registry=REGISTRY,
)

# Label values come from our own code, but an error code comes from the platform: anything not
# shaped like one becomes "other", so a strange answer cannot mint new time series.
LABEL = re.compile(r"[a-z0-9_]{1,40}")
OTHER = "other"


def label(*, value: str) -> str:
    """The value as a label value: a short lower-case word, else "other"."""
    return value if LABEL.fullmatch(value) else OTHER


class PrometheusTelemetry(telemetry.Telemetry):
    """The telemetry port written into this module's metrics.

    Every vote, comment and event reports here, so each labelled child is looked up once and
    kept: checking the label values and asking `labels()` (a lock and a dict) cost a vote more
    than the count itself. Label values are bounded words, so the memo stays small; it is still
    capped, in case a platform mints error codes without end (they all become "other").
    """

    MEMO_LIMIT = 1024

    def __init__(self) -> None:
        """No child looked up yet."""
        self._children: dict[tuple[object, tuple[str, ...]], Any] = {}

    def _child(self, metric: Any, *values: str) -> Any:
        """The metric's child for these label values (each made a label value first)."""
        key = (metric, values)
        child = self._children.get(key)
        if child is None:
            child = metric.labels(*(label(value=value) for value in values))
            if len(self._children) >= self.MEMO_LIMIT:
                self._children.clear()
            self._children[key] = child
        return child

    def post(self, *, platform: str, outcome: str) -> None:
        """Count a post attempt."""
        self._child(POSTS, platform, outcome).inc()

    def vote(self, *, platform: str, source: str) -> None:
        """Count a stored vote change."""
        self._child(VOTES, platform, source).inc()

    def comment(self, *, platform: str, action: str) -> None:
        """Count a stored comment change."""
        self._child(COMMENTS, platform, action).inc()

    def reconciled(self, *, platform: str, change: str, count: int) -> None:
        """Count what a read-back changed."""
        self._child(RECONCILED, platform, change).inc(count)

    def search(self, *, platform: str, seconds: float) -> None:
        """Observe a search's latency."""
        self._child(SEARCH_SECONDS, platform).observe(seconds)

    def api_error(self, *, platform: str, code: str) -> None:
        """Count an error answer by its code."""
        self._child(CHAT_API_ERRORS, platform, code).inc()

    def event_lag(self, *, platform: str, seconds: float) -> None:
        """Observe an event's lag; a platform clock ahead of ours is no negative lag."""
        self._child(EVENT_LAG, platform).observe(max(0.0, seconds))


def exposition() -> bytes:
    """Every metric of the registry in Prometheus' text format."""
    return bytes(generate_latest(REGISTRY))


def metrics_app(environ: dict[str, Any], start_response: Callable[..., Any]) -> list[bytes]:
    """GET /metrics as a WSGI callable."""
    del environ  # every request gets the same page
    body = exposition()
    start_response(
        "200 OK", [("Content-Type", CONTENT_TYPE_LATEST), ("Content-Length", str(len(body)))]
    )
    return [body]
