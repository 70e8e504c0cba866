"""/healthz says 200 only when the database takes a write and the scheduler's heartbeat is fresh,
and says what is wrong otherwise (never where the database is); /metrics speaks Prometheus'
format. The database's unwritable states: tests/web/test_health_writes.py."""

from __future__ import annotations

import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.db.database import Database
from bot.runtime.db_probe import probe_database
from bot.runtime.health import Heartbeat, check
from bot.runtime.metrics import exposition
from tests.faults.support import wait_until
from tests.web.conftest import Served


def test_unhealthy_until_the_scheduler_beats_then_healthy(served: Served) -> None:
    assert served.health() == (
        503,
        {"healthy": False, "database": "ok", "scheduler": "no heartbeat yet"},
    )
    served.wiring.start()
    wait_until(lambda: served.health()[0] == 200, timeout=10, what="a heartbeat")
    _, body = served.health()
    assert body["healthy"] is True and body["database"] == "ok"
    assert str(body["scheduler"]).startswith("scheduler: heartbeat ")


def test_a_stale_heartbeat_is_unhealthy_and_says_for_how_long() -> None:
    now = [1000.0]
    heartbeat = Heartbeat(clock=lambda: now[0])
    heartbeat.beat(role="leader")
    now[0] += 30
    fresh = check(ping=lambda: None, heartbeat=heartbeat, stale_after=90)
    assert fresh.healthy and fresh.checks["scheduler"] == "leader: heartbeat 30 s ago"
    now[0] += 70
    stale = check(ping=lambda: None, heartbeat=heartbeat, stale_after=90)
    assert not stale.healthy
    assert stale.checks["scheduler"] == "leader: no heartbeat for 100 s (limit 90 s)"


def test_a_database_that_does_not_answer_is_unhealthy_and_its_address_is_not_shown(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # A real PostgreSQL URL on a closed loopback port: the probe fails at once.
    database = Database(url="postgresql+psycopg://paperclub@127.0.0.1:9/none")
    heartbeat = Heartbeat()
    heartbeat.beat(role="leader")
    try:
        health = check(ping=lambda: probe_database(engine=database.engine), heartbeat=heartbeat)
    finally:
        database.dispose()
    assert not health.healthy
    assert health.checks["database"] == "unreachable"  # a fixed word: no host, port, driver
    assert health.checks["scheduler"].startswith("leader: heartbeat")
    # The details are the operator's, in the log.
    assert "127.0.0.1" in caplog.text and "unreachable" in caplog.text


def test_only_exact_paths_are_served(served: Served) -> None:
    assert served.get("/nowhere")[0] == 404
    assert served.get("/healthz/")[0] == 404


def _leader(*, page: str) -> float:
    """The leader gauge's value on a metrics page."""
    families = {family.name: family for family in text_string_to_metric_families(page)}
    (sample,) = families["paperclub_leader"].samples
    return float(sample.value)


def test_metrics_speak_prometheus_text_format(served: Served) -> None:
    served.wiring.start()  # one process on SQLite: it runs the scheduler, so it leads
    status, kind, body = served.get("/metrics")
    assert status == 200 and kind.startswith("text/plain; version=")
    assert _leader(page=body) == 1.0
    served.wiring.close()
    assert _leader(page=exposition().decode()) == 0.0
