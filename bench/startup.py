"""Start-up time and idle memory of `paperclub run` (Socket Mode, against a local fake Slack)
next to a bare process that imports exactly the libraries that run loads, and nothing else.

    python -m bench.startup [--repeats R]

Both are measured the same way: from spawning the process (the same interpreter, flags,
environment, working directory and stdin, each code given with -c) to being ready. Ours is
ready when the fake Slack has accepted its Socket Mode connection (seen from outside, not a
line we log), the bare process when it has printed that its imports are done. The bare
process imports, in the same order, every module a discovery start of run imported before it
connected (`-X importtime`), except our own package; the ones run tried and could not import,
it tries too. Our package and migrations are byte-compiled first, as `pip install` compiles
the libraries: without that, an environment with PYTHONDONTWRITEBYTECODE=1 (or a fresh clone)
recompiled ~190 of our modules from source at every start, and only ours: about 0.1 s here
(0.2x of the ratio), which is why figures taken from outside and the bench's disagreed.
"""

from __future__ import annotations

import argparse
import compileall
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, TextIO

from bench.stats import figure
from tests.fakeslack import FakeSlack  # a local Slack: no network in benchmarks either

ROOT = Path(__file__).resolve().parents[1]
OURS = "import sys; from bot.__main__ import main; sys.exit(main())"  # as the paperclub script
BARE = (
    "import sys\n"
    "for name in open(sys.argv[1], encoding='utf-8').read().split():\n"
    "    try:\n"
    "        __import__(name)\n"
    "    except ImportError:\n"  # run tried these too (optional speed-ups, other platforms)
    "        pass\n"
    "print('ready', flush=True)\n"
    "sys.stdin.read()\n"
)
CONNECTED_LINE = "Socket Mode connected"  # only to end the discovery start
# Libraries `paperclub run` in Socket Mode cannot do without: the discovered baseline must
# hold each (tests/startup checks that run loads them all, tests/bench that the baseline does).
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
SETTLE_SECONDS = 2.0
READY_TIMEOUT_SECONDS = 60.0


def _rss_mib(pid: int) -> float:
    """Resident memory of a process, from /proc."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for {pid}")


def _spawn(
    *, code: str, args: list[str], env: dict[str, str], log: TextIO
) -> subprocess.Popen[str]:
    """One process, started exactly as the other side's: python -c CODE ARGS."""
    return subprocess.Popen(
        [sys.executable, "-c", code, *args],
        env=env,
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=log,
        text=True,
    )


def _stop(*, process: subprocess.Popen[str]) -> None:
    """SIGTERM, as an operator stops run; kill if it lingers."""
    process.send_signal(signal.SIGTERM)
    try:
        process.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()


def imported_before_connecting(*, env: dict[str, str]) -> list[str]:
    """The modules a start of run imports (or tries to) before it is connected, in import
    order, without our own package: one start with -X importtime, ended once connected."""
    process = subprocess.Popen(
        [sys.executable, "-X", "importtime", "-c", OURS, "run"],
        env=env,
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    names: list[str] = []
    seen: list[str] = []
    try:
        assert process.stderr is not None
        for line in process.stderr:
            seen.append(line)
            if CONNECTED_LINE in line:
                break
            if line.startswith("import time:") and line.count("|") == 2:
                name = line.rpartition("|")[2].strip()
                if name != "bot" and not name.startswith("bot.") and name not in names:
                    names.append(name)
        else:
            raise RuntimeError("run exited before it connected:\n" + "".join(seen[-40:]))
    finally:
        _stop(process=process)
    return names


def _ours(*, env: dict[str, str], fake: FakeSlack, log: TextIO) -> tuple[float, float]:
    """Seconds from spawn to the fake's accepting our Socket Mode connection; idle MiB."""
    total = fake.socket_mode.connections_opened + 1
    start = time.perf_counter()
    process = _spawn(code=OURS, args=["run"], env=env, log=log)
    try:
        fake.wait_connected(READY_TIMEOUT_SECONDS, total=total)
        elapsed = time.perf_counter() - start
        time.sleep(SETTLE_SECONDS)
        return elapsed, _rss_mib(process.pid)
    finally:
        _stop(process=process)


def _bare(*, env: dict[str, str], names: Path, log: TextIO) -> tuple[float, float]:
    """Seconds from spawn to the bare process's "ready" (imports done); idle MiB."""
    start = time.perf_counter()
    process = _spawn(code=BARE, args=[str(names)], env=env, log=log)
    try:
        assert process.stdout is not None
        if process.stdout.readline().strip() != "ready":
            raise RuntimeError(f"the bare imports failed (see {log.name})")
        elapsed = time.perf_counter() - start
        time.sleep(SETTLE_SECONDS)
        return elapsed, _rss_mib(process.pid)
    finally:
        _stop(process=process)


def run(*, repeats: int = 5) -> list[dict[str, Any]]:
    """Start-up seconds and idle MiB, ours against the bare imports, medians with min/max;
    the two are interleaved, so that load on the machine falls on both alike."""
    # As pip compiles the libraries (and a wheel's bot/migrations, which Alembic loads at
    # every start; a checkout keeps them in migrations/).
    for package in ("bot", "migrations"):
        compileall.compile_dir(ROOT / package, quiet=1)
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
        with (Path(tmp) / "stderr.log").open("w") as log:
            # The first start migrates; that is setup, not the start-up being measured.
            _ours(env=env, fake=fake, log=log)
            modules = imported_before_connecting(env=env)
            missing = [name for name in BARE_MODULES if name not in modules]
            if missing:
                raise RuntimeError(f"run no longer loads {missing}: update BARE_MODULES")
            names = Path(tmp) / "modules.txt"
            names.write_text("\n".join(modules) + "\n", encoding="utf-8")
            print(f"  the bare process imports {len(modules)} modules", file=sys.stderr)
            for _ in range(repeats):
                ours.append(_ours(env=env, fake=fake, log=log))
                bare.append(_bare(env=env, names=names, log=log))
    names_units = (("start-up of paperclub run", "s"), ("idle memory of paperclub run", "MiB"))
    return [
        figure(
            name=name,
            unit=unit,
            ours=[sample[index] for sample in ours],
            baseline="bare imports",
            theirs=[sample[index] for sample in bare],
        )
        | {"bare_modules": len(modules)}
        for index, (name, unit) in enumerate(names_units)
    ]


def main(argv: list[str] | None = None) -> int:
    """Print the start-up figures."""
    parser = argparse.ArgumentParser(prog="python -m bench.startup")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    for row in run(repeats=args.repeats):
        print(
            f"{row['name']}: {row['median']:.2f} {row['unit']} "
            f"({row['min']:.2f}–{row['max']:.2f}); bare {row['baseline_median']:.2f} "
            f"({row['baseline_min']:.2f}–{row['baseline_max']:.2f}); ratio {row['ratio']:.2f}x"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
