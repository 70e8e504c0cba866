"""HTTP mode: only correctly signed, fresh requests are served; the health check answers."""

from __future__ import annotations

import json
import socket
import time
import urllib.error
import urllib.request
from dataclasses import replace

import pytest

from tests.fakeslack import command_body, event_body, event_envelope_payload, slash_command_payload
from tests.slack.conftest import KEY, SECRET, Harness
from tests.wired import http_service


def _command(harness: Harness) -> object:
    """A /paperclub pause command body whose response_url is recorded."""
    return command_body(
        slash_command_payload(text="pause", response_url=harness.fake.new_response_url())
    )


def test_healthz_is_served_beside_slack_events(http_harness: Harness) -> None:
    # The harness never starts the scheduler, so no heartbeat came: 503, saying so.
    url = f"http://127.0.0.1:{http_harness.settings.http_port}/healthz"
    with pytest.raises(urllib.error.HTTPError) as caught:
        urllib.request.urlopen(url, timeout=5)
    with caught.value as answer:  # it holds the connection
        assert answer.code == 503
        body = json.loads(answer.read())
    assert body == {
        "healthy": False,
        "database": "ok",
        "scheduler": "no heartbeat yet",
    }


@pytest.mark.parametrize(
    "how",
    ["wrong secret", "stale timestamp", "future timestamp", "unsigned", "tampered"],
)
def test_forged_and_stale_requests_get_401_and_change_nothing(
    http_harness: Harness, how: str
) -> None:
    body = _command(http_harness)
    port = http_harness.settings.http_port
    url = f"http://127.0.0.1:{port}/slack/events"
    if how == "wrong secret":
        status, _ = http_harness.post(body, secret="not-the-secret")
    elif how == "stale timestamp":
        status, _ = http_harness.post(body, timestamp=int(time.time()) - 10 * 60)
    elif how == "future timestamp":
        status, _ = http_harness.post(body, timestamp=int(time.time()) + 10 * 60)
    else:
        raw = body.body + (b"&text=skip" if how == "tampered" else b"")  # type: ignore[attr-defined]
        headers = {"Content-Type": body.content_type}  # type: ignore[attr-defined]
        if how == "tampered":
            from tests.fakeslack import signed_headers

            headers = signed_headers(SECRET, body.body, content_type=body.content_type)  # type: ignore[attr-defined]
        request = urllib.request.Request(url, data=raw, headers=headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=5) as response:
                status = response.status
        except urllib.error.HTTPError as error:
            with error:  # it holds the connection: unclosed, its socket is left to the GC
                status = error.code
    assert status == 401
    with http_harness.bot.database(write=False) as store:
        channel = store.channel(key=KEY)
        assert channel is not None and not channel.paused
    assert http_harness.fake.responses() == []


def test_replayed_request_is_refused_once_stale(http_harness: Harness) -> None:
    body = _command(http_harness)
    old = int(time.time()) - 6 * 60
    assert http_harness.post(body, timestamp=old)[0] == 401


def test_garbage_bodies_with_good_signatures_get_a_clean_answer(http_harness: Harness) -> None:
    for raw, kind in [
        (b"{not json", "application/json"),
        (b"\xff\xfe", "application/x-www-form-urlencoded"),
    ]:
        status, _ = http_harness.post(raw, content_type=kind)
        assert status == 400


def test_unhandled_event_is_acked_not_404(http_harness: Harness) -> None:
    event = {"type": "app_mention", "user": "U0001", "text": "hi", "ts": "1.0", "channel": "C0001"}
    status, _ = http_harness.post(event_body(event_envelope_payload(event)))
    assert status == 200


def test_url_verification(http_harness: Harness) -> None:
    status, body = http_harness.post(
        json.dumps({"type": "url_verification", "challenge": "abc", "token": "t"})
    )
    assert status == 200 and b"abc" in body


def test_stop_closes_the_connections_it_still_holds(http_harness: Harness) -> None:
    # A keep-alive connection (a proxy's, say) is open when the bot stops: stop() must close
    # it and end the serving thread, not leave the socket to the garbage collector.
    service = http_service(
        bot=http_harness.bot, settings=replace(http_harness.settings, http_port=0)
    )
    service.start()
    with socket.create_connection(("127.0.0.1", service.port), timeout=5) as kept:
        kept.sendall(b"GET /healthz HTTP/1.1\r\nHost: paperclub\r\n\r\n")
        answer = b""
        while not answer.endswith(b"}\n"):  # the JSON body's end
            answer += kept.recv(4096)
        assert answer.startswith(b"HTTP/1.1 503")  # answered; no scheduler runs here
        service.stop()
        assert kept.recv(1) == b""  # the server closed its end (a timeout here: it did not)
    assert service.server._map == {}  # nothing left open for the GC to find
