"""`paperclub run` that cannot start says so in one line naming the setting, never with a
traceback: the Slack or Discord API unreachable, the HTTP port taken, the database down."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.fakeslack import FakeSlack
from tests.processes import stop_and_reap

DISCORD_TOKEN = "MTEwMDAwMDAwMDAwMDAwMDAwMQ.GhT4xk.q1w2e3r4t5y6u7i8o9p0a1s2d3f4g5h6j7k8l9"


@pytest.fixture
def closed_port() -> Iterator[int]:
    """A loopback port bound but not listening: a connection to it is refused at once."""
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        yield int(held.getsockname()[1])


def _run(*, tmp_path: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """`python -m bot run` to its end, with only the given settings."""
    base = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("SLACK_", "PAPERCLUB_", "DISCORD_"))
    }
    return subprocess.run(
        [sys.executable, "-m", "bot", "run"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        stdin=subprocess.DEVNULL,
        env=base
        | {
            "PYTHONPATH": str(ROOT),
            "PAPERCLUB_HTTP_PORT": "0",
            "PAPERCLUB_DATABASE_URL": f"sqlite:///{tmp_path / 'club.db'}",
        }
        | env,
    )


def _our_error(done: subprocess.CompletedProcess[str]) -> list[str]:
    """The lines Paper Club itself wrote about the failure (after checking no traceback)."""
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    return [
        line
        for line in done.stderr.splitlines()
        if " ERROR paperclub:" in line or line.startswith("paperclub:")
    ]


def test_slack_api_unreachable(tmp_path: Path, closed_port: int) -> None:
    url = f"http://127.0.0.1:{closed_port}/api/"
    done = _run(
        tmp_path=tmp_path,
        env={"SLACK_BOT_TOKEN": "xoxb-1-2-3", "SLACK_APP_TOKEN": "xapp-1-2", "SLACK_API_URL": url},
    )
    (line,) = _our_error(done)
    assert f"Slack's API cannot be reached at SLACK_API_URL={url}" in line


def test_discord_api_unreachable(tmp_path: Path, closed_port: int) -> None:
    url = f"http://127.0.0.1:{closed_port}/api/v10"
    gateway = f"ws://127.0.0.1:{closed_port}/"
    settings = {
        "DISCORD_TOKEN": DISCORD_TOKEN,
        "DISCORD_API_URL": url,
        "DISCORD_GATEWAY_URL": gateway,
    }
    done = _run(tmp_path=tmp_path, env=settings)
    (line,) = _our_error(done)
    assert f"Discord's API cannot be reached at DISCORD_API_URL={url}" in line
    assert DISCORD_TOKEN not in done.stderr


def test_the_http_port_taken_stops_http_mode(tmp_path: Path) -> None:
    with FakeSlack() as fake, socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = _run(
            tmp_path=tmp_path,
            env={
                "SLACK_BOT_TOKEN": fake.bot_token,
                "SLACK_SIGNING_SECRET": "a-signing-secret-1",
                "SLACK_API_URL": fake.base_url,
                "PAPERCLUB_HTTP_PORT": str(port),
            },
        )
    (line,) = _our_error(done)
    assert line.endswith(
        f"the HTTP server cannot start: 127.0.0.1:{port} is in use;"
        " set PAPERCLUB_HTTP_HOST or _PORT"
    )


def test_the_http_port_taken_leaves_socket_mode_running_without_health(tmp_path: Path) -> None:
    # Socket Mode needs no port of its own: it runs on, saying /healthz is not served.
    with FakeSlack() as fake, socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        base = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("SLACK_", "PAPERCLUB_", "DISCORD_"))
        }
        process = subprocess.Popen(
            [sys.executable, "-m", "bot", "run"],
            cwd=tmp_path,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            env=base
            | {
                "PYTHONPATH": str(ROOT),
                "SLACK_BOT_TOKEN": fake.bot_token,
                "SLACK_APP_TOKEN": fake.app_token,
                "SLACK_API_URL": fake.base_url,
                "PAPERCLUB_HTTP_PORT": str(port),
                "PAPERCLUB_DATABASE_URL": f"sqlite:///{tmp_path / 'club.db'}",
            },
        )
        assert process.stderr is not None
        seen: list[str] = []
        try:
            for line in process.stderr:
                seen.append(line)
                if "Socket Mode connected" in line:
                    break
        finally:
            rest = stop_and_reap(process)
    log = "".join(seen) + rest
    assert process.returncode == 0, log
    assert f"no /healthz or /metrics: 127.0.0.1:{port} is in use" in log
    assert "Traceback" not in log


def test_the_database_down(tmp_path: Path, closed_port: int) -> None:
    url = f"postgresql+psycopg://paperclub:hunter2secret@127.0.0.1:{closed_port}/club"
    done = _run(tmp_path=tmp_path, env={"PAPERCLUB_DATABASE_URL": url})
    (line,) = _our_error(done)
    assert line.startswith(
        f"paperclub: cannot use the database PAPERCLUB_DATABASE_URL="
        f"postgresql+psycopg://paperclub:***@127.0.0.1:{closed_port}/club: "
    )
    assert "hunter2secret" not in done.stderr
