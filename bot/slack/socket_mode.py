"""Socket Mode over slack_sdk's websocket-client adapter, closed without waiting out timeouts.

Why not slack_sdk's built-in client: it parses the frames of one read by recursing once per
frame, and a burst (Slack's redeliveries after a restart: hundreds of envelopes at once) ends
in RecursionError, after which the stream is out of step and no envelope of the burst is acked
(tests/faults/test_fault_kill_burst.py found it). websocket-client reads frame by frame.

`close_fast` stops taking new envelopes, lets the ones in flight send their acks, then closes
the socket, which ends run_forever's wait on it at once.
"""

from __future__ import annotations

from slack_bolt.adapter.socket_mode.websocket_client import SocketModeHandler


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
    handler.close()  # type: ignore[no-untyped-call]
