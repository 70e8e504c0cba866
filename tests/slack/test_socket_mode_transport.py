"""The Socket Mode transport `run` serves with: closed at every point of its life, one
connection at a time, and a dead link noticed.

A SIGTERM can land before the session runs, in its handshake, or once it is open; each close
must return, leave no thread or socket behind, and (once open) tell Slack. A refresh opens
exactly one new connection. CI once hung `run` on a close that came before the session ran.
"""

from __future__ import annotations

import gc
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
from slack_bolt import App

from bot.slack.socket_mode import SteadyHandler, close_fast, connect_watched, wait_open
from tests.fakeslack import FakeSlack, event_envelope_payload, message_event
from tests.fakeslack.relay import Relay


@pytest.fixture
def no_leaks() -> Iterator[None]:
    """Every thread the test started (ours and the fake's) ends; no socket is left to the GC."""
    before = set(threading.enumerate())
    yield
    # The fake's connection threads end just after their socket closes: wait for that.
    deadline = time.monotonic() + 5
    while left := [t for t in threading.enumerate() if t not in before and t.is_alive()]:
        if time.monotonic() > deadline:
            break
        left[0].join(timeout=0.1)
    assert not left, f"threads left running: {left}"
    gc.collect()  # an unclosed socket's ResourceWarning fails this test, not a later one


@pytest.fixture
def fake(no_leaks: None) -> Iterator[FakeSlack]:
    """A started FakeSlack."""
    with FakeSlack() as f:
        yield f


@pytest.fixture
def handler(fake: FakeSlack) -> Iterator[SteadyHandler]:
    """A handler on a real Bolt App, closed after the test whatever it did."""
    app = App(client=fake.client(), signing_secret="unused-in-socket-mode")
    built = SteadyHandler(app, app_token=fake.app_token, web_client=app.client)
    try:
        yield built
    finally:
        close_fast(handler=built)  # a second close is a no-op; it covers a failed test


def test_a_close_before_the_session_runs(fake: FakeSlack, handler: SteadyHandler) -> None:
    connect_watched(handler=handler)
    close_fast(handler=handler)
    assert not handler.client.current_session_runner.is_alive()
    assert fake.socket_mode.connections_opened == 0


def test_a_close_in_the_handshake(fake: FakeSlack, handler: SteadyHandler) -> None:
    fake.socket_mode.hold_handshakes()
    opened = connect_watched(handler=handler)
    fake.socket_mode.wait_handshake_held()
    close_fast(handler=handler)
    fake.socket_mode.release_handshakes()
    assert not opened.is_set()
    fake.socket_mode.wait_all_closed()


def test_a_close_once_open_tells_slack(fake: FakeSlack, handler: SteadyHandler) -> None:
    never = threading.Event()
    assert wait_open(opened=connect_watched(handler=handler), stop=never)
    fake.wait_connected()
    close_fast(handler=handler)
    fake.socket_mode.wait_all_closed()
    assert fake.socket_mode.client_close_codes == [1000]


def test_a_stop_ends_the_wait_for_a_socket_that_never_opens(
    fake: FakeSlack, handler: SteadyHandler
) -> None:
    fake.socket_mode.hold_handshakes()
    opened = connect_watched(handler=handler)
    fake.socket_mode.wait_handshake_held()
    stop = threading.Event()
    stop.set()
    assert not wait_open(opened=opened, stop=stop)
    close_fast(handler=handler)
    fake.socket_mode.release_handshakes()


def test_start_and_refresh_each_ask_for_one_url(fake: FakeSlack, handler: SteadyHandler) -> None:
    # The adapter left alone asks twice at start and up to five times on a refresh.
    assert wait_open(opened=connect_watched(handler=handler), stop=threading.Event())
    fake.wait_connected()
    assert len(fake.calls("apps.connections.open")) == 1
    fake.disconnect_all()
    fake.wait_connected(total=2)
    assert fake.socket_mode.open_connections == 1
    assert len(fake.calls("apps.connections.open")) == 2
    assert fake.socket_mode.client_close_codes == [1000]  # the old one, closed by the client


def test_a_link_that_dies_silently_is_replaced(fake: FakeSlack) -> None:
    # No close, no error: the bytes just stop. The late pong ends the session and a new one
    # (given the fake's own URL this time) takes the next event.
    # Bolt never shuts its default listener executor down; this one the test does.
    executor = ThreadPoolExecutor(max_workers=1)
    app = App(client=fake.client(), signing_secret="unused", listener_executor=executor)
    heard: list[str] = []
    app.event("message")(lambda event: heard.append(event["text"]))
    handler = SteadyHandler(app, app_token=fake.app_token, web_client=app.client, ping_interval=0.4)
    with Relay(target=fake.socket_mode.url) as relay:
        fake.route_socket_mode(relay.url)
        try:
            assert wait_open(opened=connect_watched(handler=handler), stop=threading.Event())
            fake.route_socket_mode(None)
            relay.silence()
            fake.wait_connected(timeout=15, total=2)
            payload = event_envelope_payload(message_event(channel="C0001", user="U1", text="hi"))
            eid = fake.push("events_api", payload)
            assert fake.wait_ack(eid) == {"envelope_id": eid}
            executor.shutdown(wait=True)  # the listener has run once it returns
            assert heard == ["hi"]
        finally:
            close_fast(handler=handler)
            executor.shutdown(wait=True)
