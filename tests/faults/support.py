"""Shared pieces of the fault tests: real `paperclub run` processes against FakeSlack, the bot
wired in-process on a FakeClock, read-only looks into the SQLite file, seeds and the slow switch.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import zlib
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime
from datetime import time as clock_time
from pathlib import Path
from typing import Any, TextIO

from bot.config.settings import Settings
from bot.db.database import Database
from bot.db.migrate import upgrade_url
from bot.domain import ChannelKey, Schedule
from bot.slack import ids
from tests.conftest import ROOT
from tests.fakeslack import FakeSlack
from tests.services.conftest import load_sample

# PAPERCLUB_SLOW=1 runs the long variants (the `slow` marker) and bigger counts everywhere,
# with fresh random seeds; the default (CI) run is smaller and its seeds are fixed.
SLOW = os.environ.get("PAPERCLUB_SLOW") == "1"
SECRET = "fault-test-signing-secret"
ADMIN = "U0ADMIN"
MEMBER = "U0001"
# Monday 5 Jan 2026, 09:00 in Berlin: the in-process tests' post time.
MONDAY_9 = datetime(2026, 1, 5, 8, 0, tzinfo=UTC)
BERLIN_WEEKDAYS = Schedule(
    post_time=clock_time(9, 0), timezone="Europe/Berlin", weekdays=frozenset(range(1, 6))
)
# Midnight UTC every day: a real process started at any time of day finds its post due.
UTC_DAILY = Schedule(post_time=clock_time(0, 0), timezone="UTC", weekdays=frozenset(range(1, 8)))


def scaled(ci: int, slow: int) -> int:
    """A count for CI, or the longer variant's under PAPERCLUB_SLOW=1."""
    return slow if SLOW else ci


def seed_for(name: str) -> int:
    """PAPERCLUB_FAULT_SEED when set (to replay a failure); else a fresh seed in the slow
    variant, and in the default (CI) run one fixed per test, so CI always runs the same cases;
    printed."""
    text = os.environ.get("PAPERCLUB_FAULT_SEED")
    if text:
        seed = int(text)
    elif SLOW:
        seed = random.SystemRandom().randrange(2**32)
    else:
        seed = zlib.crc32(name.encode())
    print(f"{name}: seed {seed} (replay with PAPERCLUB_FAULT_SEED={seed})")
    return seed


class FakeClock:
    """A clock the test moves by hand."""

    def __init__(self, at: datetime) -> None:
        """Start at `at`."""
        self.at = at

    def now(self) -> datetime:
        """The instant the test set."""
        return self.at


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_until(
    predicate: Callable[[], object], *, timeout: float, what: str, interval: float = 0.005
) -> float:
    """Poll until predicate() is truthy; the seconds it took, or TimeoutError naming `what`."""
    start = time.monotonic()
    while not predicate():
        if time.monotonic() - start > timeout:
            raise TimeoutError(f"{what}: not within {timeout:.0f}s")
        time.sleep(interval)
    return time.monotonic() - start


def fast_folder(fallback: Path) -> Path:
    """A folder on tmpfs when the machine has one (fsyncs cost nothing there), else `fallback`.

    Only for tests about counting, not durability: a kill -9 loses nothing the kernel holds.
    """
    shm = Path("/dev/shm")
    if shm.is_dir() and os.access(shm, os.W_OK):
        import tempfile

        return Path(tempfile.mkdtemp(prefix="paperclub-faults-", dir=shm))
    return fallback


# -- the database, seen from outside ------------------------------------------------------


# Alembic's `op` and `context` are module-level proxies: two migrations in two threads of one
# process trample each other. The bot never does that; the tests' worker threads would.
_MIGRATING = threading.Lock()


def prepare_database(
    path: Path, *, channels: Sequence[str], schedule: Schedule = UTC_DAILY, team: str = "T0001"
) -> str:
    """A migrated SQLite file with the sample list imported and these channels following it."""
    url = f"sqlite:///{path}"
    with _MIGRATING:
        upgrade_url(url=url)
    database = Database(url=url)
    try:
        load_sample(database)
        with database() as store:
            for channel in channels:
                key = ChannelKey(platform="slack", workspace=team, channel=channel)
                store.save_channel(key=key, schedule=schedule, private=False)
    finally:
        database.dispose()
    return url


@contextlib.contextmanager
def read_only(path: Path) -> Iterator[sqlite3.Connection]:
    """A read-only connection to the SQLite file (another process may be writing it)."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=10)
    try:
        yield conn
    finally:
        conn.close()


def integrity(path: Path) -> str:
    """PRAGMA integrity_check on the file: 'ok' when it is sound."""
    with read_only(path) as conn:
        return "\n".join(str(row[0]) for row in conn.execute("PRAGMA integrity_check"))


def db_posts(path: Path) -> list[dict[str, Any]]:
    """Every posts row with its channel id, as plain dicts."""
    with read_only(path) as conn:
        conn.row_factory = sqlite3.Row
        rows = conn.execute(
            "SELECT p.id, c.external_id AS channel, p.local_date, p.state, p.message_id AS ts, "
            "p.claimed_by, "
            "p.paper_id FROM posts p JOIN channels c ON c.id = p.channel_id ORDER BY p.id"
        ).fetchall()
    return [dict(row) for row in rows]


def db_scalar(path: Path, sql: str, *args: object) -> Any:
    """One value from the file."""
    with read_only(path) as conn:
        return conn.execute(sql, args).fetchone()[0]


# -- the fake Slack ----------------------------------------------------------------------


def daily_posts(fake: FakeSlack, channel: str) -> list[dict[str, Any]]:
    """The daily posts the fake holds in a channel (messages with our metadata)."""
    return [
        m
        for m in fake.messages(channel)
        if (m.get("metadata") or {}).get("event_type") == ids.METADATA_EVENT_TYPE
    ]


def vote_value(message: dict[str, Any]) -> str:
    """The value the vote buttons of a daily post carry (its post id)."""
    actions = next(b for b in message["blocks"] if b["type"] == "actions")
    return str(actions["elements"][0]["value"])


def shown_counts(message: dict[str, Any]) -> tuple[str, str]:
    """The two vote buttons' texts as the message shows them."""
    actions = next(b for b in message["blocks"] if b["type"] == "actions")
    up, down = (e["text"]["text"] for e in actions["elements"])
    return str(up), str(down)


def clear_faults(fake: FakeSlack) -> None:
    """Forget every fault and delay not yet used: the restart runs without faults."""
    with fake.ws.lock:
        fake.ws._failures.clear()
        fake.ws._delays.clear()


# -- real processes ----------------------------------------------------------------------


def bot_env(
    fake: FakeSlack, db: Path, *, channel: str = "C0001", extra: dict[str, str] | None = None
) -> dict[str, str]:
    """The environment an operator would set for `paperclub run`, pointed at the fake."""
    base = {k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "PAPERCLUB_"))}
    return (
        base
        | {
            "PYTHONPATH": str(ROOT),
            "SLACK_BOT_TOKEN": fake.bot_token,
            "SLACK_APP_TOKEN": fake.app_token,
            "SLACK_API_URL": fake.base_url,
            "PAPERCLUB_DATABASE_URL": f"sqlite:///{db}",
            "PAPERCLUB_CHANNEL": channel,
            "PAPERCLUB_POST_TIME": "00:00",
            "PAPERCLUB_TIMEZONE": "UTC",
            "PAPERCLUB_DAYS": "daily",
            "PAPERCLUB_LOG_LEVEL": "DEBUG",
            "PAPERCLUB_HTTP_PORT": "0",  # /healthz on a free port: processes run side by side
            # Nothing may leave the machine: lookups for `/paperclub add` go to the fake (404).
            "PAPERCLUB_ARXIV_API_URL": f"{fake.http_url}/arxiv",
            "PAPERCLUB_CROSSREF_API_URL": f"{fake.http_url}/crossref",
        }
        | (extra or {})
    )


class BotProcess:
    """One `python -m bot run`, its stderr in a file the test can read at any time."""

    def __init__(self, *, env: dict[str, str], cwd: Path, name: str) -> None:
        """Start it."""
        self.name = name
        self.log_path = cwd / f"{name}.stderr"
        self._log: TextIO = self.log_path.open("w")
        self.started = time.monotonic()
        self.popen = subprocess.Popen(
            [sys.executable, "-m", "bot", "run"],
            env=env,
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=self._log,
        )

    @property
    def pid(self) -> int:
        """The process id."""
        return int(self.popen.pid)

    def alive(self) -> bool:
        """Still running."""
        return self.popen.poll() is None

    def stderr(self) -> str:
        """What it logged so far."""
        return self.log_path.read_text(errors="replace")

    def kill9(self) -> None:
        """SIGKILL, and reap it: a dead owner's pid is then gone, as after a real crash."""
        if self.popen.poll() is None:
            self.popen.send_signal(signal.SIGKILL)
        self.popen.wait(timeout=30)
        self._log.close()

    def terminate(self, timeout: float = 30) -> int:
        """SIGTERM and wait for the clean exit; its status."""
        if self.popen.poll() is None:
            self.popen.send_signal(signal.SIGTERM)
        try:
            return int(self.popen.wait(timeout=timeout))
        finally:
            self._log.close()

    def check_running(self) -> None:
        """Fail with its stderr when it died on its own."""
        if self.popen.poll() is not None:
            raise AssertionError(f"{self.name} exited {self.popen.returncode}:\n{self.stderr()}")


class Processes:
    """Every process a test starts; the fixture kills whatever is left, even on failure."""

    def __init__(self) -> None:
        """Nothing started yet."""
        self._all: list[BotProcess] = []
        self._lock = threading.Lock()

    def start(self, *, env: dict[str, str], cwd: Path, name: str) -> BotProcess:
        """Start `paperclub run`."""
        process = BotProcess(env=env, cwd=cwd, name=name)
        with self._lock:
            self._all.append(process)
        return process

    def kill_all(self) -> None:
        """SIGKILL and reap every process still running."""
        with self._lock:
            left = list(self._all)
        for process in left:
            with contextlib.suppress(Exception):
                process.kill9()


# -- the bot in-process ------------------------------------------------------------------


def slack_settings(
    fake: FakeSlack, url: str, *, channel: str | None = "C0001", **changes: Any
) -> Settings:
    """Settings as the environment would give them, pointed at the fake, lookups local."""
    values: dict[str, Any] = {
        "slack_bot_token": fake.bot_token,
        "slack_app_token": fake.app_token,
        "slack_signing_secret": SECRET,
        "slack_api_url": fake.base_url,
        "database_url": url,
        "channel": channel,
        "post_time": BERLIN_WEEKDAYS.post_time,
        "timezone": BERLIN_WEEKDAYS.timezone,
        "days": BERLIN_WEEKDAYS.weekdays,
        "admins": (ADMIN,),
        "http_port": free_port(),
    }
    names = {f.name for f in dataclasses.fields(Settings)}
    for name, value in (
        ("arxiv_api_url", f"{fake.http_url}/arxiv"),
        ("crossref_api_url", f"{fake.http_url}/crossref"),
        ("lookup_timeout", 2.0),
    ):
        if name in names:
            values[name] = value
    values.update(changes)
    return Settings(**values)


class LogTrap(logging.Handler):
    """Keeps every record logged at ERROR or above, and every one carrying a traceback."""

    def __init__(self) -> None:
        """Empty."""
        super().__init__(level=logging.DEBUG)
        self.records: list[logging.LogRecord] = []
        self._guard = threading.Lock()

    def emit(self, record: logging.LogRecord) -> None:
        """Keep the bad ones."""
        if record.levelno >= logging.ERROR or record.exc_info:
            with self._guard:
                self.records.append(record)

    def tracebacks(self) -> list[str]:
        """The records that carry an exception, formatted."""
        with self._guard:
            found = [r for r in self.records if r.exc_info]
        return [
            f"{r.name}: {r.getMessage()}\n{logging.Formatter().formatException(r.exc_info)}"
            for r in found
            if r.exc_info
        ]

    def errors(self) -> list[str]:
        """Every ERROR-or-worse message."""
        with self._guard:
            return [f"{r.name}: {r.getMessage()}" for r in self.records]


@contextlib.contextmanager
def trap_logs() -> Iterator[LogTrap]:
    """Install a LogTrap on the root logger for the block."""
    trap = LogTrap()
    root = logging.getLogger()
    root.addHandler(trap)
    try:
        yield trap
    finally:
        root.removeHandler(trap)
