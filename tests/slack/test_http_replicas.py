"""Two HTTP-mode replicas on one PostgreSQL database: a signed request that one of them served
is refused by the other as a replay (the record of signatures is the database's, not each
process's), while a fresh request is served by either."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from dataclasses import replace

import pytest

from bot.config.settings import Settings
from bot.db.database import Database
from bot.runtime.clock import SystemClock
from tests.fakeslack import signed_headers
from tests.slack.conftest import SECRET
from tests.wired import build_slack_bot, http_service

pytestmark = pytest.mark.postgres


def _post(*, port: int, body: bytes, headers: dict[str, str]) -> tuple[int, bytes]:
    """POST exactly these bytes and headers to /slack/events."""
    url = f"http://127.0.0.1:{port}/slack/events"
    request = urllib.request.Request(url, data=body, headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=5) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as error:
        with error:
            return error.code, error.read()


def test_a_replay_served_by_one_replica_is_refused_by_the_other(
    settings: Settings, postgres_url: str
) -> None:
    on_pg = replace(settings, database_url=postgres_url)
    databases = [Database(url=postgres_url) for _ in range(2)]
    bots = [
        build_slack_bot(settings=on_pg, database=d, clock=SystemClock(), mode="http")
        for d in databases
    ]
    servers = [http_service(bot=bot, settings=on_pg) for bot in bots]
    try:
        for server in servers:
            server.start()
        body = json.dumps({"type": "url_verification", "challenge": "once"}).encode()
        headers = signed_headers(SECRET, body)
        status, answer = _post(port=servers[0].port, body=body, headers=headers)
        assert (status, json.loads(answer)) == (200, {"challenge": "once"})
        status, answer = _post(port=servers[1].port, body=body, headers=headers)
        assert (status, answer) == (401, b"replayed request")
        fresh = json.dumps({"type": "url_verification", "challenge": "twice"}).encode()
        status, answer = _post(
            port=servers[1].port, body=fresh, headers=signed_headers(SECRET, fresh)
        )
        assert (status, json.loads(answer)) == (200, {"challenge": "twice"})
    finally:
        for server in servers:
            server.stop()
        for bot in bots:
            bot.close()
        for database in databases:
            database.dispose()
