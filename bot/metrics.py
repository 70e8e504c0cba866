"""Prometheus metrics of this process, served at GET /metrics in Prometheus' text format.

One registry of our own (not prometheus_client's global one), so only what is named here is
exported, and a test can read a value without a scrape."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from prometheus_client import CollectorRegistry, Gauge, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

REGISTRY = CollectorRegistry(auto_describe=True)

LEADER = Gauge(
    "paperclub_leader",
    "1 while this process runs the scheduler (the leader), 0 while it stands by.",
    registry=REGISTRY,
)


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
