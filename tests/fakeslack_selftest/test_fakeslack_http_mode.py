"""Signed HTTP requests to a real Bolt App served by slack_bolt's WSGI adapter."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

import pytest
from slack_bolt import Ack, App
from slack_bolt.adapter.wsgi import SlackRequestHandler
from slack_sdk.signature import SignatureVerifier

from tests.fakeslack import (
    FakeSlack,
    block_actions_payload,
    command_body,
    event_body,
    event_envelope_payload,
    interactive_body,
    message_event,
    signature,
    signed_request,
    slash_command_payload,
    url_verification_payload,
)

SECRET = "fake-signing-secret"  # what conftest's make_app() uses


class _QuietHandler(WSGIRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        """No access log."""


@pytest.fixture
def served(make_app: Callable[..., App]) -> Iterator[tuple[App, str]]:
    """A Bolt App behind a real local HTTP server -> (app, events URL)."""
    app = make_app()
    server: WSGIServer = make_server(
        "127.0.0.1", 0, SlackRequestHandler(app), handler_class=_QuietHandler
    )
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.start()
    try:
        yield app, f"http://127.0.0.1:{server.server_port}/slack/events"
    finally:
        server.shutdown()
        thread.join()
        server.server_close()


def test_signature_matches_slack_sdk(signing_secret: str) -> None:
    assert signing_secret == SECRET
    body = '{"type":"event_callback"}'
    verifier = SignatureVerifier(SECRET)
    assert signature(SECRET, body, 1_700_000_000) == verifier.generate_signature(
        timestamp="1700000000", body=body
    )


def test_good_signature_passes_bad_and_stale_get_401(
    fake: FakeSlack, served: tuple[App, str]
) -> None:
    app, url = served
    seen: list[str] = []

    @app.event("message")
    def on_message(event: dict[str, Any]) -> None:
        seen.append(event["text"])

    body = event_body(
        event_envelope_payload(message_event(channel="C0001", user="U0001", text="hi"))
    )
    assert signed_request(url, body, SECRET)[0] == 200
    assert signed_request(url, body, "wrong-secret")[0] == 401
    stale = int(time.time()) - 6 * 60
    assert signed_request(url, body, SECRET, timestamp=stale)[0] == 401
    deadline = time.monotonic() + 2
    while not seen and time.monotonic() < deadline:
        time.sleep(0.01)
    assert seen == ["hi"]


def test_retry_headers_reach_bolt(fake: FakeSlack, served: tuple[App, str]) -> None:
    app, url = served
    retries: list[str] = []
    done = threading.Event()

    @app.event("message")
    def on_message(request: Any) -> None:
        retries.append(request.headers.get("x-slack-retry-num", ["none"])[0])
        done.set()

    payload = event_envelope_payload(message_event(channel="C0001", user="U0001", text="hi"))
    body = event_body(payload, retry_num=2, retry_reason="http_timeout")
    assert signed_request(url, body, SECRET)[0] == 200
    assert done.wait(2)
    assert retries == ["2"]


def test_slash_command_and_button_as_form_bodies(fake: FakeSlack, served: tuple[App, str]) -> None:
    app, url = served

    @app.command("/paperclub")
    def command(ack: Ack, command: dict[str, Any]) -> None:
        ack(text=f"you said {command['text']}")

    @app.action("vote_up")
    def vote(ack: Ack) -> None:
        ack()

    status, raw = signed_request(url, command_body(slash_command_payload(text="help")), SECRET)
    # ack(text=...) alone comes back as text/plain over HTTP (Socket Mode wraps it in JSON).
    assert (status, raw) == (200, b"you said help")
    click = block_actions_payload(action_id="vote_up", value="1", message_ts="1700000000.000100")
    assert signed_request(url, interactive_body(click), SECRET)[0] == 200


def test_bolt_loses_a_command_whose_text_says_payload(
    fake: FakeSlack, served: tuple[App, str]
) -> None:
    # DESIGN.md §3: Bolt's body parser takes any form body containing "payload" for an
    # interactivity payload. The builders reproduce it so the HTTP edge can be tested.
    app, url = served

    @app.command("/paperclub")
    def command(ack: Ack) -> None:
        ack()

    body = command_body(slash_command_payload(text="search payload"))
    assert signed_request(url, body, SECRET)[0] == 404


def test_url_verification_echoes_the_challenge(fake: FakeSlack, served: tuple[App, str]) -> None:
    _, url = served
    status, raw = signed_request(url, event_body(url_verification_payload("abc")), SECRET)
    assert (status, json.loads(raw)) == (200, {"challenge": "abc"})
