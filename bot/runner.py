"""Start the bot: migrate, wire the edges together, run until SIGTERM/SIGINT."""

from __future__ import annotations

import logging
import os
import secrets
import signal
import socket
import sys
import threading

from bot.clock import SystemClock
from bot.config import Settings
from bot.db.migrate import upgrade
from bot.db.store import Database
from bot.domain import Schedule
from bot.lookup import HttpLookup
from bot.ports import Chat, Clock
from bot.scheduler import PostScheduler
from bot.services import housekeeping, posting, recap

log = logging.getLogger("paperclub")

MODES = ("auto", "socket", "http", "console")


def choose_mode(*, settings: Settings, mode: str) -> str:
    """auto: Socket Mode with an app token, HTTP with only a signing secret, else the console."""
    if mode != "auto":
        return mode
    if settings.slack_bot_token and settings.slack_app_token:
        return "socket"
    if settings.slack_bot_token and settings.slack_signing_secret:
        return "http"
    return "console"


def missing_for(*, settings: Settings, mode: str) -> list[str]:
    """The variables a mode needs that are not set."""
    need = {
        "socket": [("SLACK_BOT_TOKEN", settings.slack_bot_token),
                   ("SLACK_APP_TOKEN", settings.slack_app_token)],
        "http": [("SLACK_BOT_TOKEN", settings.slack_bot_token),
                 ("SLACK_SIGNING_SECRET", settings.slack_signing_secret)],
    }.get(mode, [])  # fmt: skip
    return [name for name, value in need if not value]


def claim_owner() -> str:
    """This process's name on the posts it claims: host, pid and a nonce (pids get reused)."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"


def owner_alive(owner: str) -> bool:
    """Whether a claim's owner may still be running; unknown hosts are assumed alive."""
    host, _, rest = owner.partition(":")
    pid_text = rest.partition(":")[0]
    if host != socket.gethostname() or not pid_text.isdigit():
        return True
    if int(pid_text) == os.getpid():
        return owner == OWNER
    try:
        os.kill(int(pid_text), 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


OWNER = claim_owner()


def default_schedule(*, settings: Settings) -> Schedule:
    """The schedule a channel gets unless an admin sets its own."""
    return Schedule(
        post_time=settings.post_time, timezone=settings.timezone, weekdays=settings.days
    )


def wait_for_signal() -> threading.Event:
    """An event set by SIGTERM or SIGINT, for a clean shutdown."""
    stop = threading.Event()

    def on_signal(signum: int, _frame: object) -> None:
        """Ask the main loop to stop."""
        log.info("received %s; shutting down", signal.Signals(signum).name)
        stop.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    return stop


def run(*, settings: Settings, mode: str) -> int:
    """Migrate, then start a platform; returns the exit status."""
    chosen = choose_mode(settings=settings, mode=mode)
    missing = missing_for(settings=settings, mode=chosen)
    if missing:
        print(
            f"paperclub: {chosen} mode needs {', '.join(missing)}. "
            "See the README's 'Connect to Slack'.",
            file=sys.stderr,
        )
        return 2
    database = Database(url=settings.database_url)
    try:
        upgrade(engine=database.engine)
        if chosen == "console":
            from bot.run_console import run_console

            if settings.log_level == "INFO":
                # The terminal is the user interface here; only problems go to the log.
                logging.getLogger().setLevel(logging.WARNING)
            return run_console(settings=settings, database=database, clock=SystemClock())
        from bot.run_slack import run_slack

        return run_slack(settings=settings, database=database, mode=chosen, clock=SystemClock())
    finally:
        database.dispose()


def make_lookup(*, settings: Settings) -> HttpLookup:
    """arXiv and Crossref, where the settings say."""
    return HttpLookup(
        arxiv_url=settings.arxiv_api_url,
        crossref_url=settings.crossref_api_url,
        timeout=settings.lookup_timeout,
    )


def make_poster(*, database: Database, chat: Chat, platform: str) -> posting.Poster:
    """The posting service's inputs for this process."""
    return posting.Poster(
        uow=database, chat=chat, platform=platform, owner=OWNER, owner_alive=owner_alive
    )


def start_scheduler(*, poster: posting.Poster, database: Database, clock: Clock) -> PostScheduler:
    """Start the scheduler on the channels the database holds."""

    def on_channel(channel_id: str) -> None:
        """A channel's post time came."""
        result = posting.post_today(poster=poster, channel_id=channel_id, now=clock.now())
        log_result(channel_id=channel_id, result=result)

    def on_sweep() -> None:
        """Post whatever is due and not posted yet, then any weekly recap that is due."""
        for channel_id, result in posting.post_due(poster=poster, now=clock.now()).items():
            log_result(channel_id=channel_id, result=result)
        recap.send_due_recaps(poster=poster, now=clock.now())
        housekeeping.forget_old_events(uow=database, now=clock.now())

    scheduler = PostScheduler(on_channel=on_channel, on_sweep=on_sweep)
    with database(write=False) as store:
        scheduler.start(channels=store.channels())
    return scheduler


_QUIET = {posting.Outcome.NOT_DUE, posting.Outcome.ALREADY, posting.Outcome.PAUSED}


def log_result(*, channel_id: str, result: posting.PostResult) -> None:
    """Log what a post attempt did, quietly when nothing was due."""
    level = logging.DEBUG if result.outcome in _QUIET else logging.INFO
    log.log(level, "channel %s: %s", channel_id, result.outcome.value)
