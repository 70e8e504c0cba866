"""GET /healthz and GET /metrics, for the container's health check and Prometheus."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any, Protocol

from bot.web.server import StartResponse, WsgiApp, send


class Health(Protocol):
    """What a health check found (bot.runtime.health makes it): healthy or not, a line a check."""

    @property
    def healthy(self) -> bool:
        """Whether every check passed."""
        ...

    @property
    def checks(self) -> dict[str, str]:
        """Each check's name and what it found."""
        ...


def healthz_app(*, check: Callable[[], Health]) -> WsgiApp:
    """200 with the checks when healthy, 503 with what is wrong otherwise (JSON either way)."""

    def healthz(environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        """Run the checks now."""
        if environ.get("REQUEST_METHOD") not in ("GET", "HEAD"):
            return send(start_response, 405, "use GET")
        health = check()
        body = json.dumps({"healthy": health.healthy, **health.checks}, ensure_ascii=False)
        headers = [("Content-Type", "application/json"), ("Cache-Control", "no-store")]
        return send(start_response, 200 if health.healthy else 503, body + "\n", headers)

    return healthz


def ops_routes(*, check: Callable[[], Health], metrics: WsgiApp) -> dict[str, WsgiApp]:
    """The routes every served process has: the health check and the runtime's metrics page."""
    return {"/healthz": healthz_app(check=check), "/metrics": metrics}
