"""Issue 30: the replicas' record of signed requests (in PostgreSQL) unreachable must not turn
every signed request into a 401 or a 500: the process's own memory answers meanwhile, still
refusing a replay it saw, and says so once. The record's engine points at a closed local
port: as unreachable as a stopped server, and as fast to say so."""

from __future__ import annotations

import io
import json
import logging
import time
from collections.abc import Callable
from typing import Any

import pytest

from bot.db.engine import make_engine
from bot.db.seen_requests import SharedSeenRequests
from bot.ports import ArchiveUnavailable
from bot.slack.http import make_wsgi_app
from tests.fakeslack import event_envelope_payload, reaction_event, signed_headers
from tests.slack.conftest import CHANNEL, MEMBER, SECRET, free_port
from tests.wired import SlackBot


def _unreachable() -> SharedSeenRequests:
    """The shared record on a PostgreSQL URL where nothing listens."""
    url = f"postgresql+psycopg://postgres@127.0.0.1:{free_port()}/test"
    return SharedSeenRequests(engine=make_engine(url=url))


def _call(wsgi: Callable[..., list[bytes]], *, body: bytes, headers: dict[str, str]) -> int:
    """One POST through the WSGI callable, as the server hands it over; its status."""
    environ: dict[str, Any] = {
        "REQUEST_METHOD": "POST",
        "CONTENT_LENGTH": str(len(body)),
        "CONTENT_TYPE": headers["Content-Type"],
        "wsgi.input": io.BytesIO(body),
    }
    environ.update(
        {
            "HTTP_" + k.upper().replace("-", "_"): v
            for k, v in headers.items()
            if k != "Content-Type"
        }
    )
    statuses: list[str] = []
    wsgi(environ, lambda status, _headers: statuses.append(status))
    return int(statuses[0].split()[0])


def test_the_shared_record_unreachable_says_archive_unavailable() -> None:
    record = _unreachable()
    try:
        with pytest.raises(ArchiveUnavailable) as raised:
            record.first_time(signature="v0=abc", now=time.time())
        assert "postgres@" not in str(raised.value)  # a URL's user is not in the words
    finally:
        record.engine.dispose()


def test_signed_requests_are_answered_while_the_record_is_unreachable(
    make_bot: Callable[..., SlackBot], caplog: pytest.LogCaptureFixture
) -> None:
    bot, record = make_bot(), _unreachable()
    wsgi = make_wsgi_app(app=bot.app, signing_secret=SECRET, replays=record)
    try:
        caplog.set_level(logging.WARNING, logger="bot.slack.http")
        hello = json.dumps({"type": "url_verification", "challenge": "once"}).encode()
        headers = signed_headers(SECRET, hello)
        started = time.monotonic()
        assert _call(wsgi, body=hello, headers=headers) == 200
        assert _call(wsgi, body=hello, headers=headers) == 401  # this process saw it
        event = event_envelope_payload(
            reaction_event(user=MEMBER, reaction="tada", channel=CHANNEL, item_ts="1.0")
        )
        raw = json.dumps(event).encode()
        assert _call(wsgi, body=raw, headers=signed_headers(SECRET, raw)) == 200
        assert time.monotonic() - started < 3.0
        said = [r.getMessage() for r in caplog.records if r.name == "bot.slack.http"]
        assert len(said) == 1 and "memory only" in said[0]
    finally:
        record.engine.dispose()
