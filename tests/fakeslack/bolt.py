"""Running Bolt's real SocketModeHandler against FakeSlack, and stopping it fast."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from slack_bolt import App
from slack_bolt.adapter.socket_mode import SocketModeHandler

from .fake import FakeSlack


def close_handler(handler: SocketModeHandler, fake: FakeSlack | None = None) -> None:
    """Close a SocketModeHandler in milliseconds, with no reconnect racing the close.

    slack_sdk's built-in client needs care here. Its receive loop holds a lock inside a
    recv() with a 3 s timeout that disconnect() must take, and its message loop polls a
    queue with a 1 s timeout: a plain close() takes 1-4 s. Its monitor thread may be
    reconnecting while close() runs; connect() then re-enables auto-reconnect and can
    install a new session after close() closed the old one, leaking a socket and threads.
    So: stop the monitor and the message loop first, then have the fake close this
    client's connection from its side (which wakes recv() at once), then close().
    """
    client = handler.client
    try:
        client.auto_reconnect_enabled = False
        # shutdown() joins: it waits out a reconnect in flight.
        client.current_app_monitor.shutdown()  # type: ignore[no-untyped-call]
        client.auto_reconnect_enabled = False  # connect() may have switched it back on
        client.closed = True
        client.message_queue.put(None)  # wakes the queue poll; None is skipped
        client.message_processor.shutdown()  # type: ignore[no-untyped-call]
        session = client.current_session
        sock = session.sock if session is not None else None
        if fake is not None and sock is not None:
            fake.socket_mode.close_connection_from(sock.getsockname())
    except OSError:
        pass  # the socket closed under us: nothing left to wake
    finally:
        handler.close()  # type: ignore[no-untyped-call]


@contextmanager
def socket_mode_app(
    app: App, fake: FakeSlack, *, ping_interval: float = 1, connect_timeout: float = 5
) -> Iterator[SocketModeHandler]:
    """Connect `app` over Socket Mode to `fake` (via apps.connections.open), close on exit."""
    # web_client=app.client: apps.connections.open must go to the fake, not slack.com.
    handler = SocketModeHandler(
        app, app_token=fake.app_token, web_client=app.client, ping_interval=ping_interval
    )
    try:
        opened = fake.socket_mode.connections_opened
        handler.connect()  # type: ignore[no-untyped-call]
        fake.wait_connected(connect_timeout, total=opened + 1)
        yield handler
    finally:
        close_handler(handler, fake)
