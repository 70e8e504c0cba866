"""The metrics page itself: every metric is on it, label values stay bounded, a lag below zero
is none, and GET /metrics serves it in Prometheus' text format."""

from __future__ import annotations

from typing import Any

from prometheus_client.parser import text_string_to_metric_families

from bot.config.settings import Settings
from bot.db.database import Database
from bot.runtime import metrics
from bot.runtime.clock import SystemClock
from bot.runtime.wiring import Wiring
from bot.services import telemetry
from tests.metrics.reading import changes, observed, read, totals

FAMILIES = {
    "paperclub_leader": "gauge",
    "paperclub_posts": "counter",
    "paperclub_votes": "counter",
    "paperclub_comments": "counter",
    "paperclub_reconciled": "counter",
    "paperclub_search_seconds": "histogram",
    "paperclub_chat_api_errors": "counter",
    "paperclub_event_lag_seconds": "histogram",
}


def test_every_metric_is_on_the_page() -> None:
    families = text_string_to_metric_families(metrics.exposition().decode("utf-8"))
    # Once a series has samples, the text parser reads its _created stamps as gauges of their own.
    named = {f.name: f.type for f in families if not f.name.endswith("_created")}
    assert named == FAMILIES


def test_the_wiring_hands_the_metrics_to_the_club(sqlite_url: str) -> None:
    database = Database(url=sqlite_url)
    wiring = Wiring(
        settings=Settings(database_url=sqlite_url),
        database=database,
        clock=SystemClock(),
        plugins=[],
    )
    try:
        assert isinstance(wiring.club.telemetry, metrics.PrometheusTelemetry)
        assert isinstance(wiring.club.telemetry, telemetry.Telemetry)  # the port it plugs into
    finally:
        wiring.close()
        database.dispose()


def test_label_values_are_short_lower_case_words_or_other() -> None:
    ok = ["ratelimited", "channel_not_found", "50013", "http_500", "x" * 40]
    bad = ["Ratelimited", "two words", "a-b", "", "x" * 41, "ok\n", "üml", "<script>"]
    assert [metrics.label(value=v) for v in ok] == ok
    assert [metrics.label(value=v) for v in bad] == ["other"] * len(bad)
    before = read()
    metrics.PrometheusTelemetry().api_error(platform="Slack!", code="not_in_channel")
    assert totals(moved=changes(before=before, after=read())) == {
        "paperclub_chat_api_errors_total{code=not_in_channel,platform=other}": 1
    }


def test_a_lag_below_zero_is_observed_as_none() -> None:
    before = read()
    metrics.PrometheusTelemetry().event_lag(platform="console", seconds=-3.5)
    lag = observed(
        before=before, after=read(), name="paperclub_event_lag_seconds", platform="console"
    )
    assert lag == 0.0


def test_get_metrics_serves_the_page() -> None:
    answered: list[Any] = []
    body = b"".join(
        metrics.metrics_app({}, lambda status, headers: answered.append((status, headers)))
    )
    [(status, headers)] = answered
    assert status == "200 OK"
    assert dict(headers)["Content-Type"].startswith("text/plain; version=")
    assert dict(headers)["Content-Length"] == str(len(body))
    assert b"# TYPE paperclub_posts_total counter" in body
