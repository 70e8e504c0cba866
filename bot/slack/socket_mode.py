"""Socket Mode over slack_sdk's built-in client, closed in milliseconds instead of seconds.

The built-in client's receive thread sits in recv() with a 3 s timeout while holding the lock
that close() must take, and its message loop polls a queue with a 1 s timeout: a plain close()
takes up to 3 s. `close_fast` stops taking new envelopes, lets the ones in flight send their
acks, then shuts the socket down, which ends the blocked recv() at once.
"""

from __future__ import annotations

import logging
import socket

from slack_bolt.adapter.socket_mode import SocketModeHandler

log = logging.getLogger(__name__)


def close_fast(*, handler: SocketModeHandler) -> None:
    """Close the handler's connection and threads without waiting out any timeout."""
    client = handler.client
    # No reconnect may race the close: the monitor is stopped first (shutdown joins it).
    client.auto_reconnect_enabled = False
    client.current_app_monitor.shutdown()  # type: ignore[no-untyped-call]
    client.auto_reconnect_enabled = False  # a reconnect that just finished switched it back on
    # The message loop ends on its next poll; None wakes that poll now and is skipped.
    client.closed = True
    client.message_queue.put(None)
    client.message_processor.shutdown()  # type: ignore[no-untyped-call]
    # Envelopes being handled still send their acks over the open socket.
    client.message_workers.shutdown(wait=True)
    client.current_session_state.terminated = True
    session = client.current_session
    sock = session.sock if session is not None else None
    if sock is not None:
        try:
            sock.shutdown(socket.SHUT_RDWR)  # recv() returns at once; no lock needed
        except OSError as exc:
            log.debug("the Socket Mode socket was already closed: %s", exc)
    handler.close()  # type: ignore[no-untyped-call]
