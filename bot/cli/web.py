"""`paperclub web`: the web archive alone, on its own port, until SIGTERM or Ctrl-C."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from bot.cli.archive import open_database
from bot.config.settings import Settings
from bot.ports import wait_for_stop
from bot.runtime.clock import SystemClock
from bot.services.embedding import NO_SEMANTIC
from bot.services.telemetry import Telemetry


def add_parser(*, sub: Any) -> None:
    """`web [--port N] [--host ADDR]` under the CLI's subcommands."""
    web = sub.add_parser("web", help="serve the read-only web archive alone")
    web.add_argument(
        "--port",
        type=int,
        metavar="N",
        help="default PAPERCLUB_WEB_PORT, else 8080; 0: any free port",
    )
    web.add_argument("--host", metavar="ADDR", help="default PAPERCLUB_HTTP_HOST (127.0.0.1)")


def cmd_web(*, args: argparse.Namespace, settings: Settings) -> int:
    """Serve the archive until a stop signal; a taken port is one line and status 1."""
    from bot.runtime.runner import wait_for_signal
    from bot.web.archive_serve import open_archive
    from bot.web.server import PortTaken
    from bot.web.signin import Exposed

    port = args.port if args.port is not None else settings.web.port or 8080
    database = open_database(settings=settings)
    try:
        stop = wait_for_signal()
        try:
            server = open_archive(
                uow=database,
                settings=settings,
                clock=SystemClock(),
                port=port,
                host=args.host,
                # The archive alone searches by keywords: no model is loaded for it.
                semantic_extra=NO_SEMANTIC,
                telemetry=Telemetry(),  # no /metrics here
            )
        except PortTaken as exc:
            print(f"paperclub: the web archive cannot start: {exc}", file=sys.stderr)
            return 1
        except Exposed as exc:
            print(f"paperclub: {exc}", file=sys.stderr)
            return 1
        # The line a person (or a test) waits for: where to point the browser.
        print(f"Serving the archive on http://{server.host}:{server.port}/", flush=True)
        try:
            wait_for_stop(stop=stop)
        finally:
            server.stop()
        return 0
    finally:
        database.dispose()
