"""`paperclub run`: migrate, start every configured platform, run until SIGTERM/SIGINT."""

from __future__ import annotations

import logging
import signal
import sys
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from bot.config.settings import Settings
from bot.db.database import Database
from bot.db.migrate import upgrade
from bot.domain import WorkspaceKey
from bot.ports import PlatformStartError
from bot.runtime.clock import SystemClock
from bot.runtime.platforms import FALLBACK, chosen, plugin
from bot.runtime.process import signals_held
from bot.runtime.scheduler import channel_trigger
from bot.runtime.wiring import Wiring
from bot.schedule_text import describe_days
from bot.services import workspaces

if TYPE_CHECKING:
    from bot.services.embedding import SemanticExtra
    from bot.web.server import HttpService

log = logging.getLogger("paperclub")

MODES = ("auto", "socket", "http", "console")


class Beside(Protocol):
    """A local service the command line runs beside the bot on its open archive (the warm
    `paperclub search`: bot/cli/warm_server.py); started with the platforms, it returns what
    stops it."""

    def __call__(
        self, *, settings: Settings, database: Database, semantic_extra: SemanticExtra
    ) -> Callable[[], None]:
        """Start; the returned callable stops it."""
        ...


def wait_for_signal() -> threading.Event:
    """An event set by SIGTERM or SIGINT, for a clean shutdown."""
    stop = threading.Event()

    def on_signal(signum: int, _frame: object) -> None:
        """Ask the platforms to stop."""
        log.info("received %s; shutting down", signal.Signals(signum).name)
        stop.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    return stop


def _open_http(*, wiring: Wiring, settings: Settings) -> bool:
    """Serve /healthz, /metrics (and Slack's requests in HTTP mode). A taken address stops
    HTTP mode with one line naming the settings; in the other modes the bot runs on without
    health and metrics, saying so (a second replica on one host needs a port of its own)."""
    from bot.web.server import PortTaken

    try:
        with signals_held():
            wiring.open_http(host=settings.http_host, port=settings.http_port)
    except PortTaken as exc:
        if wiring.platform_routes():
            log.error("the HTTP server cannot start: %s; set PAPERCLUB_HTTP_HOST or _PORT", exc)
            return False
        log.warning("no /healthz or /metrics: %s; set PAPERCLUB_HTTP_PORT to serve them", exc)
    return True


def _open_web(*, wiring: Wiring, settings: Settings, console: bool) -> HttpService | None:
    """The web archive on PAPERCLUB_WEB_PORT, outside HTTP mode (there it is under /archive);
    a taken port leaves the bot running without it, saying so."""
    if settings.web.port is None or wiring.platform_routes():
        return None  # the console loads no web library unless the archive is asked for
    from bot.web.archive_serve import open_archive
    from bot.web.server import PortTaken
    from bot.web.signin import Exposed

    try:
        with signals_held():
            web = open_archive(
                uow=wiring.database,
                settings=settings,
                clock=wiring.clock,
                port=settings.web.port,
                semantic_extra=wiring.club.semantic_extra,
                telemetry=wiring.club.telemetry,
            )
    except PortTaken as exc:
        log.warning("no web archive: %s; set PAPERCLUB_WEB_PORT to another port", exc)
        return None
    except Exposed as exc:
        log.warning("no web archive: %s", exc)
        return None
    if console:  # the console logs only problems, and its user needs the address
        print(f"The web archive: http://{web.host}:{web.port}/", file=sys.stderr)
    else:
        log.info("serving the web archive on %s:%s", web.host, web.port)
    return web


def _nothing() -> None:
    """Stops nothing: no service beside the bot was started."""


def announce_channels(*, wiring: Wiring) -> None:
    """One line per followed channel: its schedule, its next post in its own zone and its
    queue; a channel with nothing to post says so at WARNING, with where papers are waiting
    (another workspace, such as an import before the platform first started) and the one
    command that moves them."""
    now = wiring.clock.now()
    for channel in wiring.channels():
        workspace = channel.key.workspace_key
        with wiring.database(write=False) as store:
            queued = store.count_queued(workspace=workspace, channel=channel)
        schedule = channel.schedule
        when = f"{describe_days(days=schedule.weekdays)} at {schedule.post_time:%H:%M}"
        upcoming = channel_trigger(channel=channel).get_next_fire_time(None, now)
        if channel.paused:
            following = "paused"
        elif upcoming is None:
            following = "no post day ahead"
        else:
            following = f"next post {upcoming:%a %Y-%m-%d %H:%M %Z}"
        log.info(
            "channel %s on %s: %s %s; %s; %d %s queued",
            channel.key,
            channel.key.platform,
            when,
            schedule.timezone,
            following,
            queued,
            "paper" if queued == 1 else "papers",
        )
        if not queued:
            hint = _empty_queue_hint(wiring=wiring, at=workspace)
            log.warning("channel %s: %s", channel.key, hint)


def _empty_queue_hint(*, wiring: Wiring, at: WorkspaceKey) -> str:
    """What an empty queue means here and the one command that fills it."""
    elsewhere = workspaces.papers_elsewhere(uow=wiring.database, workspace=at)
    if elsewhere:
        source, count = max(elsewhere.items(), key=lambda item: item[1])
        return (
            f"the queue is empty, but {count} papers wait in the workspace {source}; move them "
            f"with `{workspaces.move_command(source=source, target=at)}`"
        )
    return (
        "the queue is empty, so nothing will be posted; add papers with "
        f"`paperclub import FILE --workspace {at}` or /paperclub add"
    )


def run(*, settings: Settings, mode: str, beside: Beside | None = None) -> int:
    """Migrate, then serve every platform the settings (or the mode) call for, and `beside`
    once they run; the exit status."""
    if settings.incomplete and mode != "console":
        # Never a console in place of a platform set up by halves: in a container a quiet
        # console exits at once and the restart policy loops without a word.
        for problem in settings.incomplete:
            print(f"paperclub: configuration: {problem}.", file=sys.stderr)
        print(
            "paperclub: see the README's 'Connect to Slack' and 'Connect to Discord', or "
            "start the console alone with `paperclub run --mode console`.",
            file=sys.stderr,
        )
        return 2
    names = chosen(settings=settings, mode=mode)
    plugins = [plugin(name=name) for name in names]
    missing = [v for p in plugins for v in p.missing(settings=settings, mode=mode)]
    if missing:
        print(
            f"paperclub: {mode} mode needs {', '.join(missing)}. "
            "See the README's 'Connect to Slack' and 'Connect to Discord'.",
            file=sys.stderr,
        )
        return 2
    if names == [FALLBACK] and settings.log_level == "INFO":
        # The terminal is the user interface here; only problems go to the log.
        logging.getLogger().setLevel(logging.WARNING)
    database = Database(url=settings.database_url)
    try:
        upgrade(engine=database.engine)
        stop = wait_for_signal()
        try:
            with signals_held():  # the threads the platforms start never take a stop signal
                wiring = Wiring(
                    settings=settings,
                    database=database,
                    clock=SystemClock(),
                    plugins=plugins,
                    mode=mode,
                )
        except PlatformStartError as exc:
            log.error("%s", exc)
            return 1
        web: HttpService | None = None
        stop_beside: Callable[[], None] = _nothing
        try:
            console = names == [FALLBACK]
            if not console and not _open_http(wiring=wiring, settings=settings):
                return 1
            web = _open_web(wiring=wiring, settings=settings, console=console)
            with signals_held():
                wiring.start()
                if beside is not None:
                    stop_beside = beside(
                        settings=settings,
                        database=database,
                        semantic_extra=wiring.club.semantic_extra,
                    )
            announce_channels(wiring=wiring)
            log.info("Paper Club is running on %s", ", ".join(wiring.platforms))
            wiring.serve(stop=stop)
        finally:
            stop_beside()
            if web is not None:
                web.stop()
            wiring.close()
        log.info("stopped cleanly")
        return 0
    finally:
        database.dispose()
