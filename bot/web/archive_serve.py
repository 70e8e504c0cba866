"""Where the archive is served: under /archive on the process's HTTP server, or alone on a
port of its own (PAPERCLUB_WEB_PORT, and `paperclub web`)."""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable
from datetime import date
from typing import Any
from zoneinfo import ZoneInfo

from bot.config.settings import Settings
from bot.ports import Clock, Store, UnitOfWork
from bot.services.embedding import SemanticExtra
from bot.services.telemetry import Telemetry
from bot.web.server import HttpService, StartResponse, WsgiApp, send
from bot.web.signin import PREFIX, Exposed, exposure, signer

log = logging.getLogger("paperclub")


def _mounted(*, app: WsgiApp, prefix: str) -> WsgiApp:
    """The app under `prefix`: Flask then builds its links with it (SCRIPT_NAME)."""

    def mounted(environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        """Move the prefix from PATH_INFO to SCRIPT_NAME."""
        path = environ.get("PATH_INFO", "")
        if path == prefix:  # /archive itself: its pages' relative links need the slash
            return send(start_response, 301, "", [("Location", prefix + "/")])
        environ["SCRIPT_NAME"] = environ.get("SCRIPT_NAME", "") + prefix
        environ["PATH_INFO"] = path[len(prefix) :]
        return app(environ, start_response)

    return mounted


def archive_wsgi(
    *,
    uow: UnitOfWork[Store],
    settings: Settings,
    clock: Clock,
    semantic_extra: SemanticExtra,
    telemetry: Telemetry,
) -> WsgiApp:
    """The archive app, its 'today' in the configured time zone, searching with the
    semantic extra and timing searches into the telemetry it is given."""
    from bot.web.archive import archive_app  # Flask: imported when the archive is first used

    def today() -> date:
        """Today where the group lives (for 'top of the week')."""
        return clock.now().astimezone(ZoneInfo(settings.timezone)).date()

    app: WsgiApp = archive_app(
        uow=uow,
        today=today,
        workspace=settings.web.workspace,
        signer=signer(settings=settings),
        now=clock.now,
        semantic_extra=semantic_extra,
        telemetry=telemetry,
        trust_proxy=settings.web.trust_proxy,
    )
    return app


def archive_routes(
    *,
    uow: UnitOfWork[Store],
    settings: Settings,
    clock: Clock,
    host: str,
    semantic_extra: SemanticExtra,
    telemetry: Telemetry,
) -> dict[str, WsgiApp]:
    """The archive under /archive, for the process's HTTP server on `host` (none, saying why,
    where it would answer anyone with no sign-in). Built on its first request: importing Flask
    would cost every start of the bot ~0.13 s, and most never open the archive."""
    if why := exposure(host=host, settings=settings):
        log.warning("no web archive under /archive: %s", why)
        return {}
    built: list[WsgiApp] = []
    lock = threading.Lock()

    def app(environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        """Build the mounted archive once, then answer through it."""
        with lock:
            if not built:
                wsgi = archive_wsgi(
                    uow=uow,
                    settings=settings,
                    clock=clock,
                    semantic_extra=semantic_extra,
                    telemetry=telemetry,
                )
                built.append(_mounted(app=wsgi, prefix=PREFIX))
        return built[0](environ, start_response)

    return {PREFIX: app, PREFIX + "/": app}


def open_archive(
    *,
    uow: UnitOfWork[Store],
    settings: Settings,
    clock: Clock,
    port: int,
    host: str | None = None,
    semantic_extra: SemanticExtra,
    telemetry: Telemetry,
) -> HttpService:
    """The archive alone, at the root of its own port (PortTaken when it cannot bind, Exposed
    when it would answer anyone with no sign-in)."""
    host = host or settings.http_host
    if why := exposure(host=host, settings=settings):
        raise Exposed(why)
    app = archive_wsgi(
        uow=uow,
        settings=settings,
        clock=clock,
        semantic_extra=semantic_extra,
        telemetry=telemetry,
    )
    service = HttpService(routes={"/": app}, host=host, port=port)
    service.start()
    return service
