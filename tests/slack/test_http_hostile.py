"""Requests that once gave a 500 and a traceback, sent as they were: unsigned requests with odd
header bytes or a 5,000-digit timestamp get 401; signed bodies Slack would never send (a JSON
array, 10,000-deep nesting, fields of the wrong type, a view that is a string) get 400, nothing
of them is stored and no traceback is logged."""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import socket
import time
from urllib.parse import urlencode

import pytest
from sqlalchemy import inspect, text

from tests.slack.conftest import SECRET, Harness


def _raw_post(*, port: int, headers: bytes, body: bytes) -> bytes:
    """A POST written byte for byte (urllib would refuse or re-encode these headers)."""
    request = (
        b"POST /slack/events HTTP/1.1\r\nHost: paperclub\r\nConnection: close\r\n"
        + b"Content-Type: application/json\r\nContent-Length: "
        + str(len(body)).encode()
        + b"\r\n"
        + headers
        + b"\r\n"
        + body
    )
    with socket.create_connection(("127.0.0.1", port), timeout=5) as connection:
        connection.sendall(request)
        answer = b""
        while chunk := connection.recv(4096):
            answer += chunk
    return answer


def _rows(harness: Harness) -> dict[str, int]:
    """Every table's row count."""
    engine = harness.bot.database.engine
    with engine.connect() as connection:
        return {
            name: connection.execute(text(f'SELECT count(*) FROM "{name}"')).scalar_one()
            for name in inspect(engine).get_table_names()
            if "_fts" not in name
        }


@pytest.mark.parametrize(
    "headers",
    [
        b"X-Slack-Request-Timestamp: \xb2\r\nX-Slack-Signature: v0=00\r\n",  # superscript two
        b"X-Slack-Request-Timestamp: \xc2\xb2\r\nX-Slack-Signature: v0=00\r\n",
        b"X-Slack-Request-Timestamp: \xd9\xa3\r\nX-Slack-Signature: v0=00\r\n",  # Arabic-Indic
        b"X-Slack-Request-Timestamp: %d\r\nX-Slack-Signature: v0=\xe9\xe9\r\n",  # non-ASCII
    ],
    ids=["latin-1 superscript", "utf-8 superscript", "arabic-indic digit", "non-ascii signature"],
)
def test_odd_header_bytes_get_401(http_harness: Harness, headers: bytes) -> None:
    headers = headers.replace(b"%d", str(int(time.time())).encode())
    answer = _raw_post(port=http_harness.settings.http_port, headers=headers, body=b"{}")
    assert answer.startswith(b"HTTP/1.1 401"), answer[:200]


def _no_traceback(caplog: pytest.LogCaptureFixture) -> None:
    """Nothing was logged with an exception, by us or by waitress."""
    assert not [r for r in caplog.records if r.exc_info], caplog.text
    assert "Traceback" not in caplog.text


@pytest.mark.parametrize("signed", [False, True], ids=["unsigned", "signed"])
def test_a_5000_digit_timestamp_gets_401_without_a_traceback(
    http_harness: Harness, caplog: pytest.LogCaptureFixture, signed: bool
) -> None:
    caplog.set_level(logging.DEBUG)
    stamp, body = b"9" * 5000, b'{"type": "url_verification", "challenge": "c1"}'
    digest = hmac.new(SECRET.encode(), b"v0:" + stamp + b":" + body, hashlib.sha256)
    signature = b"v0=" + (digest.hexdigest().encode() if signed else b"00")
    headers = b"X-Slack-Request-Timestamp: " + stamp + b"\r\nX-Slack-Signature: " + signature
    answer = _raw_post(port=http_harness.settings.http_port, headers=headers + b"\r\n", body=body)
    assert answer.startswith(b"HTTP/1.1 401"), answer[:200]
    _no_traceback(caplog)


NESTED = '{"type": "event_callback", "event": ' + '{"a": ' * 10_000 + "1" + "}" * 10_001
MALFORMED_JSON = {
    "a JSON array": json.dumps([{"type": "event_callback"}]),
    "10k-deep nesting": NESTED,
    "a string for the event": json.dumps({"type": "event_callback", "event": "reaction_added"}),
    "a number for the user": json.dumps(
        {
            "type": "event_callback",
            "team_id": "T0001",
            "event_id": "Ev1",
            "event": {
                "type": "reaction_added",
                "user": 5,
                "reaction": "+1",
                "item": {"type": "message", "channel": "C0001", "ts": "1.0"},
            },
        }
    ),
    "a list for the item": json.dumps(
        {"type": "event_callback", "event": {"type": "reaction_added", "user": "U1", "item": []}}
    ),
    "a number for the type": json.dumps({"type": 7}),
}


@pytest.mark.parametrize("body", MALFORMED_JSON.values(), ids=MALFORMED_JSON.keys())
def test_signed_malformed_json_gets_400_and_stores_nothing(
    http_harness: Harness, body: str
) -> None:
    before = _rows(http_harness)
    status, answer = http_harness.post(body)
    assert (status, answer.split(b":")[0]) == (400, b"malformed request")
    assert _rows(http_harness) == before


MALFORMED_PAYLOADS = {
    "actions as a string": {"type": "block_actions", "user": {"id": "U1"}, "actions": "vote"},
    "user as a string": {"type": "block_actions", "user": "U1", "actions": []},
    "an action as a number": {"type": "block_actions", "user": {"id": "U1"}, "actions": [3]},
    "a payload that is a list": [],
    "a view that is a string": {"type": "block_actions", "user": {"id": "U1"}, "view": "home"},
    "view state that is a list": {"type": "view_submission", "view": {"id": "V1", "state": []}},
    "a view id that is a number": {"type": "view_closed", "view": {"id": 7}},
    "team as a list": {"type": "block_actions", "team": ["T0001"], "actions": []},
    "channel as a string": {"type": "block_actions", "channel": "C0001", "actions": []},
    "a user's team id as an object": {"type": "block_actions", "user": {"team_id": {}}},
}


@pytest.mark.parametrize("payload", MALFORMED_PAYLOADS.values(), ids=MALFORMED_PAYLOADS.keys())
def test_signed_malformed_interactions_get_400_and_store_nothing(
    http_harness: Harness, payload: object, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    before = _rows(http_harness)
    body = urlencode({"payload": json.dumps(payload)})
    status, answer = http_harness.post(body, content_type="application/x-www-form-urlencoded")
    assert (status, answer.split(b":")[0]) == (400, b"malformed request")
    assert _rows(http_harness) == before
    _no_traceback(caplog)


def test_events_whose_channel_or_user_is_an_object_are_not_refused(http_harness: Harness) -> None:
    # channel_created, team_join, user_change: Slack sends objects where messages have ids.
    for event in (
        {"type": "channel_created", "channel": {"id": "C0NEW", "name": "new", "creator": "U1"}},
        {"type": "team_join", "user": {"id": "U0NEW", "name": "newcomer"}},
    ):
        body = json.dumps(
            {
                "type": "event_callback",
                "team_id": "T0001",
                "event_id": "Ev9" + event["type"],
                "event_time": 1,
                "event": event,
            }
        )
        assert http_harness.post(body)[0] == 200


def test_a_well_formed_request_still_works_after_the_malformed_ones(http_harness: Harness) -> None:
    # The checks only refuse: the shapes Slack really sends go through (url_verification here,
    # the whole HTTP-mode suite for events, commands and clicks).
    status, body = http_harness.post(json.dumps({"type": "url_verification", "challenge": "c1"}))
    assert status == 200 and b"c1" in body
