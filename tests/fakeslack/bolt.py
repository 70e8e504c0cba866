"""Running Bolt's real SocketModeHandler against FakeSlack, on the transport `run` uses.

The handler is the websocket-client one that bot.slack.plugin serves with, connected and
closed by the same functions, so the scenario tests drive the production transport.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from slack_bolt import App
from slack_bolt.adapter.socket_mode.websocket_client import SocketModeHandler

from bot.slack.socket_mode import SteadyHandler, close_fast, connect_watched

from .fake import FakeSlack


@contextmanager
def socket_mode_app(
    app: App, fake: FakeSlack, *, ping_interval: float = 1, connect_timeout: float = 5
) -> Iterator[SocketModeHandler]:
    """Connect `app` over Socket Mode to `fake` (via apps.connections.open), close on exit."""
    # web_client=app.client: apps.connections.open must go to the fake, not slack.com.
    handler = SteadyHandler(
        app, app_token=fake.app_token, web_client=app.client, ping_interval=ping_interval
    )
    try:
        opened = fake.socket_mode.connections_opened
        if not connect_watched(handler=handler).wait(connect_timeout):
            raise TimeoutError(f"Socket Mode did not open within {connect_timeout} s")
        fake.wait_connected(connect_timeout, total=opened + 1)
        yield handler
    finally:
        close_fast(handler=handler)
