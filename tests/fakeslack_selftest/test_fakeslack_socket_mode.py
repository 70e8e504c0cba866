"""Bolt's real SocketModeHandler (the websocket-client one `run` serves with) against the fake."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from typing import Any

import pytest
from slack_bolt import Ack, App, Respond
from slack_sdk import WebClient
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from tests.fakeslack import (
    FakeSlack,
    block_actions_payload,
    event_envelope_payload,
    message_event,
    reaction_event,
    slash_command_payload,
    socket_mode_app,
)


def test_hello_on_connect_and_tickets_checked(fake: FakeSlack) -> None:
    url = fake.client().apps_connections_open(app_token="xapp-test")["url"]
    with connect(url) as ws:
        hello = json.loads(ws.recv(timeout=2))
    assert hello["type"] == "hello"
    assert hello["num_connections"] == 1
    assert hello["connection_info"]["app_id"] == "A0APP"
    with pytest.raises(InvalidStatus), connect(f"{fake.socket_mode.url}/link/?ticket=forged"):
        pass


def test_slash_command_is_acked_with_payload_and_respond_reaches_response_url(
    fake: FakeSlack, make_app: Callable[..., App]
) -> None:
    app = make_app()
    seen: list[dict[str, Any]] = []

    @app.command("/paperclub")
    def command(ack: Ack, respond: Respond, command: dict[str, Any]) -> None:
        ack(text="searching…")
        seen.append(command)
        respond(text=f"results for {command['text']}", response_type="ephemeral")

    with socket_mode_app(app, fake):
        url = fake.new_response_url()
        eid = fake.push(
            "slash_commands", slash_command_payload(text="search payload", response_url=url)
        )
        ack = fake.wait_ack(eid)
        assert ack["envelope_id"] == eid
        assert ack["payload"] == {"text": "searching…"}
        assert fake.wait_response(url) == {
            "text": "results for search payload",
            "response_type": "ephemeral",
        }
    assert seen[0]["text"] == "search payload"
    assert fake.socket_mode.envelopes()[0]["accepts_response_payload"] is True


def test_event_is_acked_and_bolt_sees_retry_headers(
    fake: FakeSlack, make_app: Callable[..., App]
) -> None:
    app = make_app()
    got: list[tuple[str, dict[str, Any]]] = []
    done = threading.Event()

    @app.event("message")
    def on_message(body: dict[str, Any], event: dict[str, Any], context: Any, request: Any) -> None:
        got.append((request.headers.get("x-slack-retry-num", ["-"])[0], body))
        if len(got) == 2:
            done.set()

    with socket_mode_app(app, fake):
        event = message_event(channel="C0001", user="U0001", text="nice paper")
        first = fake.push("events_api", event_envelope_payload(event, event_id="Ev0001"))
        assert fake.wait_ack(first) == {"envelope_id": first}
        second = fake.socket_mode.redeliver(first, reason="timeout")
        fake.wait_ack(second)
        assert done.wait(2)
    # Bolt turns retry_attempt into x-slack-retry-num, even "0" on the first delivery.
    assert [(num, body["event_id"]) for num, body in got] == [("0", "Ev0001"), ("1", "Ev0001")]
    retry = fake.socket_mode.envelopes()[1]
    assert (retry["retry_attempt"], retry["retry_reason"]) == (1, "timeout")


def test_unhandled_event_gets_no_ack(fake: FakeSlack, make_app: Callable[..., App]) -> None:
    app = make_app()
    with socket_mode_app(app, fake):
        reaction = reaction_event(user="U0001", reaction="+1", channel="C0001", item_ts="1.2")
        eid = fake.push("events_api", event_envelope_payload(reaction))
        # Bolt answers 404 internally and sends nothing: Slack would retry this envelope.
        with pytest.raises(TimeoutError):
            fake.wait_ack(eid, timeout=0.5)


def test_button_click_reaches_the_action_listener(
    fake: FakeSlack, make_app: Callable[..., App]
) -> None:
    app = make_app()
    clicked: list[dict[str, Any]] = []

    @app.action("vote_up")
    def vote(ack: Ack, body: dict[str, Any], action: dict[str, Any], client: WebClient) -> None:
        ack()
        clicked.append({"user": body["user"]["id"], "value": action["value"]})
        # The listener's own Web API calls reach the fake through app.client.
        client.chat_update(channel=body["channel"]["id"], ts=body["message"]["ts"], text="1 vote")

    ts = fake.client().chat_postMessage(channel="C0001", text="paper of the day")["ts"]
    payload = block_actions_payload(
        action_id="vote_up",
        value="post-1",
        user_id="U0002",
        message_ts=ts,
        message=fake.message("C0001", ts),
    )
    with socket_mode_app(app, fake):
        eid = fake.push("interactive", payload)
        assert fake.wait_ack(eid) == {"envelope_id": eid}
        assert fake.ws.wait_for(lambda: fake.calls("chat.update"), timeout=2)
    assert clicked == [{"user": "U0002", "value": "post-1"}]
    assert fake.message("C0001", ts)["text"] == "1 vote"


def test_disconnect_message_makes_the_client_reconnect(
    fake: FakeSlack, make_app: Callable[..., App]
) -> None:
    app = make_app()
    events: list[str] = []

    @app.event("message")
    def on_message(event: dict[str, Any]) -> None:
        events.append(event["text"])

    with socket_mode_app(app, fake):
        fake.disconnect_all()
        fake.wait_connected(total=2)
        assert fake.socket_mode.open_connections == 1
        assert len(fake.calls("apps.connections.open")) == 2
        eid = fake.push(
            "events_api",
            event_envelope_payload(message_event(channel="C0001", user="U0001", text="after")),
        )
        fake.wait_ack(eid)
    assert events == ["after"]


def test_server_close_reconnects_on_the_next_ping_check(
    fake: FakeSlack, make_app: Callable[..., App]
) -> None:
    # Without a disconnect message the built-in client notices only in its monitor loop,
    # which runs every ping_interval seconds.
    app = make_app()
    with socket_mode_app(app, fake, ping_interval=0.2):
        fake.socket_mode.drop_all()
        fake.wait_connected(timeout=3, total=2)


def test_bot_own_message_is_ignored_by_bolt(fake: FakeSlack, make_app: Callable[..., App]) -> None:
    app = make_app()
    seen: list[str] = []

    @app.event("message")
    def on_message(event: dict[str, Any]) -> None:
        seen.append(event["text"])

    ts = fake.client().chat_postMessage(channel="C0001", text="daily post")["ts"]
    echo = {k: v for k, v in fake.message("C0001", ts).items() if k != "channel"}
    echo.update({"channel": "C0001", "event_ts": ts, "channel_type": "channel"})
    with socket_mode_app(app, fake):
        eid = fake.push("events_api", event_envelope_payload(echo))
        assert fake.wait_ack(eid) == {"envelope_id": eid}
    assert seen == []


def test_push_without_a_client_times_out(fake: FakeSlack) -> None:
    with pytest.raises(TimeoutError):
        fake.push("events_api", event_envelope_payload({"type": "app_mention"}), timeout=0.1)


def test_rate_limited_connections_open_is_retried_by_the_client(
    fake: FakeSlack, make_app: Callable[..., App]
) -> None:
    # slack_sdk's Socket Mode client sleeps Retry-After itself on a ratelimited answer.
    fake.fail_next("apps.connections.open", status=429, retry_after=0)
    with socket_mode_app(make_app(), fake):
        assert [r.status for r in fake.requests("apps.connections.open")] == [429, 200]


def test_stop_closes_connected_clients_and_is_idempotent() -> None:
    unstarted = FakeSlack()  # binds nothing until start(): nothing to leak
    with pytest.raises(RuntimeError):
        _ = unstarted.base_url
    unstarted.stop()
    with FakeSlack() as fake:
        url = fake.client().apps_connections_open(app_token="xapp-test")["url"]
        with connect(url) as ws:
            ws.recv(timeout=2)  # hello
            fake.stop()  # does not wait for the client to go away
            with pytest.raises(ConnectionClosed):
                ws.recv(timeout=2)
            assert ws.close_code == 1001
    fake.stop()
