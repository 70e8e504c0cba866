"""Socket Mode over slack_sdk's websocket-client adapter: one session at a time, closed fast.

Why not slack_sdk's built-in client: it parses the frames of one read by recursing once per
frame, and a burst (Slack's redeliveries after a restart: hundreds of envelopes at once) ends
in RecursionError, after which the stream is out of step and no envelope of the burst is acked
(tests/faults/test_fault_kill_burst.py found it). websocket-client reads frame by frame.

What the adapter gets wrong, and `SteadyClient` fixes: connect() only prepares a session, and
a runner thread starts run_forever on it at its next 0.5 s tick (here: at once). Until then the
adapter takes the session for closed, so its monitor (which runs at once) and the old session's
on-close handler both open another: two apps.connections.open at every start, five on a
refresh, and a session replaced in its handshake leaks its socket. It also runs an ended
session again, on a URL whose ticket is spent. Here a session counts as live from its
preparation until it closes after opening or its run_forever returns, and runs at most once.
And when Slack closes a connection first, websocket-client leaves the OS socket open; it is
closed here. A late pong ends a session, as in the built-in client (the adapter never looks at
pongs), and no socket call blocks for more than 15 s.

What `close_fast` fixes: run_forever sets keep_running again as it starts, undoing a close()
that came first, and close() then joins the runner forever (a SIGTERM right after start hung
`run` in CI); a close in the handshake drops the socket unclosed. `wait_open` waits for the
socket to open; `close_fast` stops the runner from starting another run_forever, ends the one
running until the runner's thread is gone, and closes every socket it saw.
"""

from __future__ import annotations

import contextlib
import functools
import socket
import threading
import weakref
from collections.abc import Callable
from queue import Empty
from typing import Any

import websocket
from slack_bolt import App
from slack_bolt.adapter.socket_mode.websocket_client import SocketModeHandler
from slack_sdk import WebClient
from slack_sdk.socket_mode.interval_runner import IntervalRunner
from slack_sdk.socket_mode.websocket_client import SocketModeClient
from websocket import WebSocketException

from bot.slack.lanes import Lanes, route

# How often a close is repeated (while a run_forever that was starting may still undo it) and
# a stop is looked for while the socket opens.
_CLOSE_RETRY_SECONDS = 0.05
# A pong later than this share of the ping interval ends the session (websocket-client wants
# the timeout below the interval).
PONG_SHARE = 0.5
# How long a connect, handshake, read or send may block (Slack wants an ack within 3 s).
SOCKET_TIMEOUT_SECONDS = 15


class _Runner(IntervalRunner):
    """The session runner, woken when a session is ready rather than polling for one."""

    def __init__(self, target: Callable[[], None]) -> None:
        super().__init__(target, interval_seconds=0.5)
        self.ready = threading.Event()

    def _run(self) -> None:
        """Run the target whenever woken (or every interval, as before) until shut down."""
        while not self.event.is_set():
            self.ready.clear()  # before the run: a session readied during it is not missed
            self.target()
            self.ready.wait(self.interval_seconds)

    def stop(self) -> None:
        """Start nothing more after the run in progress; wake the wait so the thread ends."""
        self.event.set()
        self.ready.set()

    def shutdown(self) -> None:
        """Stop and join (the adapter's close() calls this)."""
        self.stop()
        super().shutdown()  # type: ignore[no-untyped-call]


class SteadyClient(SocketModeClient):
    """The websocket-client Socket Mode client, opening one session at a time."""

    def __init__(self, **kwargs: Any) -> None:
        # Without a timeout websocket-client waits for ever: on a handshake that a middlebox
        # never answers (the session counts as live, so nothing replaces it, and a close has
        # no socket to wake yet) and on a send to a dead link with a full buffer.
        websocket.setdefaulttimeout(SOCKET_TIMEOUT_SECONDS)
        self._started: weakref.WeakSet[Any] = weakref.WeakSet()  # run_forever was called
        self._opened: weakref.WeakSet[Any] = weakref.WeakSet()  # its socket opened
        self._finished: weakref.WeakSet[Any] = weakref.WeakSet()  # run_forever returned
        # Sockets of ended sessions, closed once their run_forever is over: a socket closed
        # while another thread waits on it in epoll may never wake that thread.
        self._ending: list[tuple[Any, Any]] = []
        self._ending_lock = threading.Lock()
        super().__init__(**kwargs)
        # The adapter's runner polls every 0.5 s: a new session waited up to that long to start
        # (half a second of every start-up and reconnect). Ours starts it as soon as it is ready.
        self.current_session_runner.shutdown()
        self.current_session_runner: _Runner = _Runner(self._run_current_session)
        self.current_session_runner.start()
        self.on_open_listeners.append(self._opened.add)
        self.on_error_listeners.append(_close_after_peer_close)
        self._lanes = Lanes(pool=self.message_workers)

    def process_message(self) -> None:
        """As the adapter's, but one person's votes run in the order Slack sent them."""
        with contextlib.suppress(Empty):
            raw = self.message_queue.get(timeout=1)
            if raw is not None:
                again = functools.partial(self.connect_to_new_endpoint, force=True)
                route(raw=raw, lanes=self._lanes, reconnect=again, run=self.run_message_listeners)

    def is_connected(self) -> bool:
        """Whether the current session is live: prepared, starting, or open. Not: closed
        after it opened (its on-close handler then reconnects at once), or over."""
        # A session that failed before it opened is live until its run_forever returns: the
        # monitor replaces it on its next tick, where an instant reconnect would call
        # apps.connections.open in a loop for as long as the endpoint refuses.
        session = self.current_session
        if session is None or session in self._finished:
            return False
        return session not in self._opened or session.sock is not None

    def connect(self) -> None:
        """Prepare a new session and end the old one at once."""
        old, self.current_session = self.current_session, None  # not WebSocketApp.close()
        super().connect()
        self.current_session_runner.ready.set()
        if old is not None:
            self.end_session(session=old)

    def end_session(self, *, session: Any) -> None:
        """Make a session's run_forever end now: its loop stops, its read wakes, Slack is told."""
        # Not WebSocketApp.close(): in a handshake it drops the socket unclosed; otherwise it
        # closes the socket under the reading thread's epoll (which then sleeps on to its 10 s
        # timeout, holding up the next session) after waiting up to 3 s for Slack's close frame.
        session.keep_running = False  # repeated by close_fast: a starting run_forever resets it
        sock = session.sock
        if sock is None:
            return
        with self._ending_lock:
            first = all(known is not sock for _, known in self._ending)
            if first:
                self._ending.append((session, sock))
        if first and sock.connected:
            with contextlib.suppress(WebSocketException, OSError):
                sock.send_close()
        raw = sock.sock
        if raw is not None:
            with contextlib.suppress(OSError):
                raw.shutdown(socket.SHUT_RDWR)

    def close_ended(self, *, session: Any = None) -> None:
        """Close the sockets of ended sessions (of `session` only, when given)."""
        with self._ending_lock:
            done = [pair for pair in self._ending if session is None or pair[0] is session]
            self._ending = [pair for pair in self._ending if pair not in done]
        for _, sock in done:
            sock.shutdown()

    def _run_current_session(self) -> None:
        """Run the current session once; an ended one waits to be replaced, not rerun."""
        session = self.current_session  # read once: connect() may replace it meanwhile
        if session is None or session in self._started:
            return
        self._started.add(session)
        try:
            self.logger.info("Starting to receive messages from a new connection")
            # ping_timeout: a link that died silently (a NAT forgot it, a laptop slept) ends
            # when a pong is late, as slack_sdk's built-in client has it; the adapter would
            # wait, hearing nothing, until TCP gives up (~15 minutes).
            session.run_forever(
                ping_interval=self.ping_interval,
                ping_timeout=self.ping_interval * PONG_SHARE,
                http_proxy_host=self.http_proxy_host,
                http_proxy_port=self.http_proxy_port,
                http_proxy_auth=self.http_proxy_auth,
                proxy_type=self.proxy_type,
            )
            self.logger.info("Stopped receiving messages from a connection")
        except Exception as exc:  # the adapter's policy: log; the monitor opens a new session
            self.logger.exception("Socket Mode session failed: %s", exc)
        finally:
            self._finished.add(session)
            self.close_ended(session=session)

    def _monitor_current_session(self) -> None:
        """Replace a session that has ended (the adapter's check also replaced unstarted ones)."""
        if not self.current_app_monitor_started or not self.auto_reconnect_enabled:
            return
        if self.is_connected():
            return
        try:
            self.logger.info("The Socket Mode session has ended; reconnecting")
            self.connect_to_new_endpoint()
        except Exception as exc:  # the adapter's own policy: log, and try again next interval
            self.logger.error("Socket Mode reconnect failed (%s: %s)", type(exc).__name__, exc)


def _close_after_peer_close(ws: Any, _error: Exception) -> None:
    """Close the socket of a session whose close handshake is done (the peer closed first)."""
    # websocket-client answers the peer's close frame, marks itself disconnected, and then its
    # teardown's close() returns at once for a disconnected socket: the OS socket stays open
    # until the garbage collector finds it. on_error runs just before that teardown.
    sock = ws.sock
    if sock is not None and not sock.connected:
        sock.shutdown()


class SteadyHandler(SocketModeHandler):
    """Bolt's websocket-client Socket Mode handler, on `SteadyClient`."""

    client: SteadyClient

    def __init__(
        self,
        app: App,
        *,
        app_token: str,
        web_client: WebClient,
        ping_interval: float = 10,
        on_reopen: Callable[[], None] = lambda: None,
    ) -> None:
        """`on_reopen` is called (on the session's thread) each time a session opens, the first
        included: events sent while none was open may be lost (Slack delivers an event to a
        live connection or, past its retries, never), and the ask is stamped with the moment
        events flow again, so a read-back begun before that is not taken to cover them."""
        # Bolt's __init__ would build its own client; this one does what it does, on ours.
        self.app = app
        self.app_token = app_token
        self.client = SteadyClient(
            app_token=app_token,
            logger=app.logger,
            web_client=web_client,
            ping_interval=ping_interval,
        )
        self.client.socket_mode_request_listeners.append(self.handle)  # type: ignore[arg-type]

        def reopened(_ws: Any) -> None:
            """Tell `on_reopen` of the session; its failure is logged."""
            try:
                on_reopen()
            except Exception:  # the session stays up; the next reconnect asks again
                self.client.logger.exception("could not ask for a read-back after a reconnect")

        self.client.on_open_listeners.append(reopened)


def connect_watched(*, handler: SteadyHandler) -> threading.Event:
    """Connect; the event returned is set once the socket is open."""
    opened = threading.Event()

    def on_open(_ws: Any) -> None:
        opened.set()

    handler.client.on_open_listeners.append(on_open)
    handler.connect()  # type: ignore[no-untyped-call]
    return opened


def wait_open(*, opened: threading.Event, stop: threading.Event) -> bool:
    """Wait until the socket is open (True) or `stop` is set first (False)."""
    # Two events cannot be waited on together; stop is checked between short waits.
    while not opened.wait(timeout=_CLOSE_RETRY_SECONDS):
        if stop.is_set():
            return False
    return True


def close_fast(*, handler: SteadyHandler) -> None:
    """Close the handler's connection and threads without waiting out any timeout."""
    client = handler.client
    runner = client.current_session_runner
    runner.stop()  # the runner starts no run_forever after the one in progress
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
    thread = runner.thread
    while thread is not None and thread.is_alive():
        session = client.current_session  # read once: a reconnect may swap it meanwhile
        if session is not None:
            client.end_session(session=session)
        thread.join(timeout=_CLOSE_RETRY_SECONDS)
    client.close_ended()
    handler.close()  # type: ignore[no-untyped-call]
