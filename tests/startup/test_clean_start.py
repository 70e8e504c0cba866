"""`paperclub run` as a real process: a clean Socket Mode start logs no warning, asks auth.test
once, loads only the libraries it uses (and every one the start-up baseline counts), and stops
at once on SIGTERM; the console loads no Slack, BibTeX, Atom or HTTP-server library."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from bench.startup import BARE_MODULES
from tests.conftest import ROOT
from tests.fakeslack import FakeSlack
from tests.processes import stop_and_reap

READY = "Socket Mode connected"
RUNNING = "Paper Club is running on slack"
# Libraries only other commands, formats or modes need.
# waitress serves /healthz and /metrics in Socket Mode too; the console serves no HTTP.
COMPLETE = {
    "title": "Attention Is All You Need",
    "authors": ["Ashish Vaswani", "Noam Shazeer"],
    "abstract": "The dominant sequence transduction models are based on recurrent networks.",
    "arxiv_id": "1706.03762",
    "doi": "10.48550/arXiv.1706.03762",
    "url": "https://arxiv.org/abs/1706.03762",
}
NOT_FOR_SOCKET_MODE = ("rich", "bibtexparser", "feedparser", "discord", "aiohttp")
NOT_FOR_CONSOLE = ("slack_bolt", "slack_sdk", "bibtexparser", "feedparser", "waitress", "discord")


def _env(*, db: Path, fake: FakeSlack | None) -> dict[str, str]:
    """An operator's environment: Slack pointed at the fake, or no Slack at all."""
    base = {k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "PAPERCLUB_"))}
    env = base | {
        "PYTHONPATH": str(ROOT),
        "PAPERCLUB_DATABASE_URL": f"sqlite:///{db}",
        "PAPERCLUB_LOG_LEVEL": "INFO",
        "PAPERCLUB_HTTP_PORT": "0",
    }
    if fake is not None:
        env |= {
            "SLACK_BOT_TOKEN": fake.bot_token,
            "SLACK_APP_TOKEN": fake.app_token,
            "SLACK_API_URL": fake.base_url,
            "PAPERCLUB_CHANNEL": "C0001",
        }
    return env


def _loaded(*, stderr: str) -> set[str]:
    """The modules a process imported, from its -X importtime lines."""
    return {
        line.rpartition("|")[2].strip()
        for line in stderr.splitlines()
        if line.startswith("import time:") and "|" in line
    }


def _within(*, modules: set[str], library: str) -> bool:
    """Whether any module of the library was imported."""
    return any(name == library or name.startswith(library + ".") for name in modules)


def _socket_mode_run(*, fake: FakeSlack, db: Path) -> str:
    """Start `paperclub run`, wait until it is connected and running, SIGTERM it: its stderr."""
    process = subprocess.Popen(
        [sys.executable, "-X", "importtime", "-m", "bot", "run"],
        env=_env(db=db, fake=fake),
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stderr is not None
    before: list[str] = []
    try:
        waiting = {READY, RUNNING}
        for line in process.stderr:
            before.append(line)
            waiting = {sign for sign in waiting if sign not in line}
            if not waiting:
                break
        assert not waiting, "".join(before)
    finally:
        rest = stop_and_reap(process)
    assert process.returncode == 0, "".join(before) + rest
    return "".join(before) + rest


def test_a_clean_socket_mode_start_warns_nothing_and_asks_auth_test_once(tmp_path: Path) -> None:
    with FakeSlack() as fake:
        fake.add_channel("C0001", "general")
        db = tmp_path / "club.db"
        # A paper imported before the first start (an empty queue is warned about, issue 30),
        # complete, so that enrichment has nothing to ask an offline arXiv.
        listing = tmp_path / "list.json"
        listing.write_text(json.dumps([COMPLETE]))
        imported = subprocess.run(
            [sys.executable, "-m", "bot", "import", str(listing)],
            env=_env(db=db, fake=None),
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert imported.returncode == 0, imported.stderr
        for start in (1, 2):  # a fresh database (migrated), then a plain restart
            stderr = _socket_mode_run(fake=fake, db=db)
            logged = [line for line in stderr.splitlines() if not line.startswith("import time:")]
            problems = [line for line in logged if " WARNING " in line or " ERROR " in line]
            assert problems == [], "\n".join(logged)
            assert "stopped cleanly" in stderr
            assert len(fake.calls("auth.test")) == start


def test_socket_mode_loads_what_it_uses_and_every_baseline_library(tmp_path: Path) -> None:
    with FakeSlack() as fake:
        fake.add_channel("C0001", "general")
        stderr = _socket_mode_run(fake=fake, db=tmp_path / "club.db")
    loaded = _loaded(stderr=stderr)
    assert [lib for lib in NOT_FOR_SOCKET_MODE if _within(modules=loaded, library=lib)] == []
    # bench/startup.py's baseline imports these: each must be one `run` really needs.
    assert [name for name in BARE_MODULES if name not in loaded] == []


def test_the_console_loads_no_slack_bibtex_atom_or_http_server_library(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "bot", "run", "--mode", "console"],
        env=_env(db=tmp_path / "club.db", fake=None),
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    loaded = _loaded(stderr=done.stderr)
    assert "bot.console.chat" in loaded  # the console really ran
    assert [lib for lib in NOT_FOR_CONSOLE if _within(modules=loaded, library=lib)] == []
