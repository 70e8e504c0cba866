"""Start-up time and idle memory of `paperclub run` (Socket Mode, against a local fake Slack)
next to a bare import of every library `paperclub run` needs for it (BARE_MODULES).

    python -m bench.startup [--repeats R]
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.stats import figure
from tests.fakeslack import FakeSlack  # a local Slack: no network in benchmarks either

ROOT = Path(__file__).resolve().parents[1]
READY_OURS = "Socket Mode connected"
READY_BARE = "ready"
# The honest baseline: the library modules `paperclub run` in Socket Mode really loads and
# cannot do without (tests/startup checks it loads them all), and nothing it does not load.
BARE_MODULES = (
    "slack_bolt",  # the App and its listeners
    # SocketModeHandler on websocket-client (its package's __init__ loads the built-in one too)
    "slack_bolt.adapter.socket_mode.websocket_client",
    "slack_sdk.http_retry.builtin_handlers",  # our WebClients retry rate limits and 5xx
    "sqlalchemy.orm",  # the archive
    "sqlalchemy.dialects.sqlite",  # the configured database...
    "sqlite3",  # ...and its driver
    "alembic.command",  # run migrates first: upgrade head
    "alembic.config",
    "alembic.op",  # what every migration script imports (Alembic loads them all)
    "apscheduler.schedulers.background",  # the post scheduler and its triggers
    "apscheduler.triggers.cron",
    "apscheduler.triggers.interval",
    "waitress.server",  # /healthz and /metrics
    "prometheus_client",
    "apscheduler.executors.pool",
    "dotenv",  # settings read .env
)
BARE = f"import {', '.join(BARE_MODULES)}; print('ready', flush=True); input()"
SETTLE_SECONDS = 2.0


def _rss_mib(pid: int) -> float:
    """Resident memory of a process, from /proc."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for {pid}")


def _measure(
    *, argv: list[str], env: dict[str, str], ready: str, stream: str
) -> tuple[float, float]:
    """Seconds until `ready` is printed, and RSS (MiB) after settling idle."""
    start = time.perf_counter()
    process = subprocess.Popen(
        argv,
        env=env,
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        pipe = process.stderr if stream == "stderr" else process.stdout
        assert pipe is not None
        for line in pipe:
            if ready in line:
                break
        else:
            raise RuntimeError(f"{argv} exited before it was ready")
        elapsed = time.perf_counter() - start
        time.sleep(SETTLE_SECONDS)
        return elapsed, _rss_mib(process.pid)
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.communicate()


def run(*, repeats: int = 5) -> list[dict[str, Any]]:
    """Start-up seconds and idle MiB, ours against the bare imports, medians with min/max."""
    ours: list[tuple[float, float]] = []
    bare: list[tuple[float, float]] = []
    with FakeSlack() as fake, tempfile.TemporaryDirectory(prefix="paperclub-start-") as tmp:
        fake.add_channel("C0001", "general")
        env = {k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "PAPERCLUB_"))}
        env |= {
            "PYTHONPATH": str(ROOT),
            "SLACK_BOT_TOKEN": fake.bot_token,
            "SLACK_APP_TOKEN": fake.app_token,
            "SLACK_API_URL": fake.base_url,
            "PAPERCLUB_DATABASE_URL": f"sqlite:///{Path(tmp) / 'club.db'}",
            "PAPERCLUB_CHANNEL": "C0001",
            "PAPERCLUB_LOG_LEVEL": "INFO",
            "PAPERCLUB_HTTP_PORT": "0",
        }
        # The first start migrates; that is setup, not the start-up being measured.
        _measure(
            argv=[sys.executable, "-m", "bot", "run"], env=env, ready=READY_OURS, stream="stderr"
        )
        for _ in range(repeats):
            ours.append(
                _measure(
                    argv=[sys.executable, "-m", "bot", "run"],
                    env=env,
                    ready=READY_OURS,
                    stream="stderr",
                )
            )
            bare.append(
                _measure(
                    argv=[sys.executable, "-c", BARE], env=env, ready=READY_BARE, stream="stdout"
                )
            )
    names = (("start-up of paperclub run", "s"), ("idle memory of paperclub run", "MiB"))
    rows = [
        figure(
            name=name,
            unit=unit,
            ours=[sample[index] for sample in ours],
            baseline="bare imports",
            theirs=[sample[index] for sample in bare],
        )
        for index, (name, unit) in enumerate(names)
    ]
    return rows


def main(argv: list[str] | None = None) -> int:
    """Print the start-up figures."""
    parser = argparse.ArgumentParser(prog="python -m bench.startup")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    for row in run(repeats=args.repeats):
        print(
            f"{row['name']}: {row['median']:.2f} {row['unit']} "
            f"({row['min']:.2f}–{row['max']:.2f}); bare {row['baseline_median']:.2f}; "
            f"ratio {row['ratio']:.2f}x"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
