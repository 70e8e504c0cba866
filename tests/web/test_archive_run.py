"""`paperclub run` with PAPERCLUB_WEB_PORT as a real process: in Socket Mode the archive is on
that port and not on the health port, and the console tells its user where the archive is."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

from tests.conftest import ROOT
from tests.fakeslack import FakeSlack
from tests.processes import stop_and_reap
from tests.web.archive_data import seed

SERVING = re.compile(r"serving (HTTP|the web archive) on 127\.0\.0\.1:(\d+)")


def _env(*, db: Path, fake: FakeSlack | None) -> dict[str, str]:
    """An operator's environment: the archive on any free port, Slack at the fake or absent."""
    base = {k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "PAPERCLUB_"))}
    env = base | {
        "PYTHONPATH": str(ROOT),
        "PAPERCLUB_DATABASE_URL": f"sqlite:///{db}",
        "PAPERCLUB_LOG_LEVEL": "INFO",
        "PAPERCLUB_HTTP_PORT": "0",
        "PAPERCLUB_WEB_PORT": "0",
        "PAPERCLUB_WEB_WORKSPACE": "slack:T1",
        # The seeded queue gets enriched: a closed loopback port, not the internet.
        "PAPERCLUB_ARXIV_API_URL": "http://127.0.0.1:9/api/query",
        "PAPERCLUB_CROSSREF_API_URL": "http://127.0.0.1:9",
    }
    if fake is not None:
        env |= {
            "SLACK_BOT_TOKEN": fake.bot_token,
            "SLACK_APP_TOKEN": fake.app_token,
            "SLACK_API_URL": fake.base_url,
            "PAPERCLUB_CHANNEL": "C0001",
        }
    return env


def _status(url: str) -> int:
    """The status of a GET."""
    try:
        with urllib.request.urlopen(url, timeout=5) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as error:
        with error:
            return int(error.code)


def _workspace(url: str) -> object:
    """The workspace the archive's JSON home answers for."""
    with urllib.request.urlopen(url, timeout=5) as answer:
        return json.loads(answer.read())["workspace"]


def test_socket_mode_serves_the_archive_on_its_own_port_only(
    tmp_path: Path, sqlite_url: str
) -> None:
    db = Path(sqlite_url.removeprefix("sqlite:///"))
    seed(url=sqlite_url)
    with FakeSlack() as fake:
        fake.add_channel("C0001", "general")
        process = subprocess.Popen(
            [sys.executable, "-m", "bot", "run"],
            env=_env(db=db, fake=fake),
            cwd=tmp_path,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert process.stderr is not None
        ports: dict[str, int] = {}
        lines: list[str] = []
        try:
            for line in process.stderr:  # the log's lines are the signal that it listens
                lines.append(line)
                if found := SERVING.search(line):
                    ports[found[1]] = int(found[2])
                if len(ports) == 2:
                    break
            assert len(ports) == 2, "".join(lines)
            web, ops = ports["the web archive"], ports["HTTP"]
            assert _workspace(f"http://127.0.0.1:{web}/api/") == "slack:T1"
            assert _status(f"http://127.0.0.1:{web}/paper/999999") == 404
            # The health port is for probes: the archive is not mounted there in Socket Mode.
            assert _status(f"http://127.0.0.1:{ops}/archive/") == 404
            assert _status(f"http://127.0.0.1:{ops}/metrics") == 200
        finally:
            rest = stop_and_reap(process)
        assert process.returncode == 0, "".join(lines) + rest


def test_the_console_says_where_the_archive_is(tmp_path: Path, sqlite_url: str) -> None:
    db = Path(sqlite_url.removeprefix("sqlite:///"))
    seed(url=sqlite_url)
    process = subprocess.Popen(
        [sys.executable, "-m", "bot", "run", "--mode", "console"],
        env=_env(db=db, fake=None),
        cwd=tmp_path,
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdin is not None and process.stderr is not None
    try:
        lines: list[str] = []
        found = None
        for line in process.stderr:  # a warning may come first (arXiv is out of reach here)
            lines.append(line)
            if found := re.match(r"The web archive: http://127\.0\.0\.1:(\d+)/$", line.strip()):
                break
        assert found, "".join(lines)
        assert _workspace(f"http://127.0.0.1:{found[1]}/api/") == "slack:T1"
        process.stdin.close()  # end of input ends the console
        assert process.wait(timeout=30) == 0, process.stderr.read()
    finally:
        if process.poll() is None:
            stop_and_reap(process)
        process.stderr.close()
