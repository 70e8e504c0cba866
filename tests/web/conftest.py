"""A Wiring with no chat platform, serving its HTTP server on a free loopback port."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from bot.config.settings import Settings
from bot.db.database import Database
from bot.runtime.clock import SystemClock
from bot.runtime.wiring import Wiring


@dataclass
class Served:
    """The wiring and the base URL of its server."""

    wiring: Wiring
    base: str

    def get(self, path: str) -> tuple[int, str, str]:
        """Status, Content-Type and body of a GET."""
        try:
            with urllib.request.urlopen(self.base + path, timeout=5) as answer:
                return answer.status, answer.headers["Content-Type"], answer.read().decode()
        except urllib.error.HTTPError as error:
            with error:  # it holds the connection
                return error.code, error.headers["Content-Type"], error.read().decode()

    def health(self) -> tuple[int, dict[str, object]]:
        """The /healthz status and its JSON."""
        status, kind, body = self.get("/healthz")
        assert kind == "application/json"
        return status, json.loads(body)


def serve(*, url: str, archive: bool = True) -> Iterator[Served]:
    """A wiring on the database at `url`, its server open (the archive mounted as in HTTP
    mode unless `archive` is False), its scheduler not yet started."""
    settings = Settings(database_url=url, http_port=0)
    database = Database(url=url)
    wiring = Wiring(settings=settings, database=database, clock=SystemClock(), plugins=[])
    try:
        server = wiring.open_http(host="127.0.0.1", port=0, archive=archive)
        yield Served(wiring=wiring, base=f"http://127.0.0.1:{server.port}")
    finally:
        wiring.close()
        database.dispose()


@pytest.fixture
def served(sqlite_url: str) -> Iterator[Served]:
    """Served on a SQLite file of the test's own."""
    yield from serve(url=sqlite_url)
