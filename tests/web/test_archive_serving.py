"""The archive served for real: under /archive on the process's server, alone on its own port,
and by `paperclub web` as a subprocess (loopback only)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.config.settings import Settings
from bot.config.web import WebSettings
from bot.db.database import Database
from bot.runtime.clock import SystemClock
from bot.services.embedding import NO_SEMANTIC
from bot.services.telemetry import Telemetry
from bot.web.archive_serve import open_archive
from tests.processes import stop_and_reap
from tests.web.archive_data import seed
from tests.web.conftest import Served, serve


@pytest.fixture
def seeded_served(sqlite_url: str) -> Iterator[Served]:
    """The process's HTTP server over a seeded archive."""
    seed(url=sqlite_url)
    yield from serve(url=sqlite_url)


def _json(url: str) -> dict[str, object]:
    """GET a JSON answer."""
    with urllib.request.urlopen(url, timeout=5) as answer:
        assert answer.headers["Content-Type"] == "application/json"
        data: dict[str, object] = json.loads(answer.read())
        return data


def test_the_http_server_serves_the_archive_under_archive(seeded_served: Served) -> None:
    """/archive/ is the archive, its links under /archive; /healthz still answers."""
    status, kind, body = seeded_served.get("/archive/?workspace=slack:T1")
    assert status == 200 and kind.startswith("text/html")
    assert 'href="/archive/paper/' in body and 'href="/archive/top/week?workspace=slack:T1"' in body
    api = _json(seeded_served.base + "/archive/api/search?workspace=slack:T1&q=transformers")
    assert api["total"] == 32
    assert seeded_served.get("/archive/feed.atom?workspace=slack:T1")[0] == 200
    assert seeded_served.get("/healthz")[0] != 404  # 503: the scheduler is not started here
    assert seeded_served.get("/archiveX")[0] == 404


def test_the_archive_alone_on_its_own_port(sqlite_url: str) -> None:
    """open_archive (PAPERCLUB_WEB_PORT's server) serves the archive at its root, showing the
    configured workspace when the visitor names none."""
    seed(url=sqlite_url)
    settings = Settings(database_url=sqlite_url, web=WebSettings(workspace="slack:T1"))
    database = Database(url=sqlite_url)
    server = open_archive(
        uow=database,
        settings=settings,
        clock=SystemClock(),
        port=0,
        host="127.0.0.1",
        semantic_extra=NO_SEMANTIC,
        telemetry=Telemetry(),
    )
    try:
        assert _json(f"http://127.0.0.1:{server.port}/api/")["workspace"] == "slack:T1"
    finally:
        server.stop()
        database.dispose()


def test_paperclub_web_serves_until_sigterm(sqlite_url: str, tmp_path: Path) -> None:
    """`paperclub web --port 0` prints where it listens, answers, and stops cleanly."""
    seed(url=sqlite_url)
    env = {
        **os.environ,
        "PAPERCLUB_DATABASE_URL": sqlite_url,
        "PAPERCLUB_WEB_WORKSPACE": "slack:T1",
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "bot", "web", "--port", "0", "--host", "127.0.0.1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=tmp_path,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()  # the signal that it listens
        assert line.startswith("Serving the archive on http://127.0.0.1:"), line
        base = line.split(" on ", 1)[1].strip()
        assert _json(base + "api/")["total"] == 32
    finally:
        stop_and_reap(process)
        if process.stdout is not None:
            process.stdout.close()
    assert process.returncode == 0
