"""The fake's Socket Mode server: envelopes out, acks in, over a real WebSocket."""

from __future__ import annotations

import contextlib
import copy
import json
import logging
import socket
import threading
import time
import uuid
from http import HTTPStatus
from typing import Any
from urllib.parse import parse_qs, urlsplit

from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response
from websockets.sync.server import Server, ServerConnection, serve

from .model import JsonDict
from .state import Workspace

ENVELOPE_TYPES = ("events_api", "slash_commands", "interactive")
# Interactive payloads whose ack may carry a response (errors, a new view, options).
_RESPONDING_INTERACTIONS = ("view_submission", "block_suggestion")

_log = logging.getLogger("fakeslack.socket_mode")


def _accepts_response(envelope_type: str, payload: JsonDict) -> bool:
    if envelope_type == "slash_commands":
        return True
    return envelope_type == "interactive" and payload.get("type") in _RESPONDING_INTERACTIONS


class SocketModeServer:
    """A local WebSocket server speaking Slack's Socket Mode protocol."""

    def __init__(self, ws: Workspace, *, ping_interval: float | None = None) -> None:
        self._ws = ws
        self._cond = threading.Condition()
        self._send_lock = threading.Lock()
        self._open: list[ServerConnection] = []
        self._opened_total = 0
        self._envelopes: dict[str, JsonDict] = {}
        self._acks: dict[str, JsonDict] = {}
        self._received: list[JsonDict] = []
        self._ping_interval = ping_interval
        # Cleared by hold_handshakes(): upgrade requests then wait before they are answered.
        self._let_through = threading.Event()
        self._let_through.set()
        self._handshakes_waiting = 0
        # Per ended connection: the code of the client's close frame, None if it sent none.
        self._client_close_codes: list[int | None] = []
        self._server: Server | None = None
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        """ws://127.0.0.1:PORT: plain ws, which slack_sdk allows for any port but 443."""
        if self._server is None:
            raise RuntimeError("the Socket Mode server is not started")
        return f"ws://127.0.0.1:{self._server.socket.getsockname()[1]}"

    def start(self) -> None:
        """Bind a random port and accept connections in a background thread."""
        # close_timeout is short: slack_sdk's built-in client never answers a close frame,
        # it just closes the TCP socket, and shutdown should not wait 10 s for nothing.
        self._server = serve(
            self._handle,
            "127.0.0.1",
            0,
            compression=None,
            process_request=self._check_ticket,
            ping_interval=self._ping_interval,
            close_timeout=1,
            logger=_log,
        )
        self._thread = threading.Thread(
            target=self._server.serve_forever, name="fakeslack-socket-mode", daemon=True
        )
        self._thread.start()

    def stop(self) -> None:
        """Close every connection (1001 going away), join all threads."""
        self._let_through.set()
        if self._server is not None and self._thread is not None:
            self._server.shutdown()
            self._thread.join()

    # -- server side -------------------------------------------------------------------

    def _check_ticket(self, conn: ServerConnection, request: Request) -> Response | None:
        query = parse_qs(urlsplit(request.path).query)
        ticket = (query.get("ticket") or [""])[0]
        if not self._ws.ticket_known(ticket):
            return conn.respond(HTTPStatus.UNAUTHORIZED, "invalid ticket\n")
        if not self._let_through.is_set():
            with self._cond:
                self._handshakes_waiting += 1
                self._cond.notify_all()
            self._let_through.wait()
            with self._cond:
                self._handshakes_waiting -= 1
        return None

    def hold_handshakes(self) -> None:
        """Leave upgrade requests unanswered (the client stays in its handshake) until released."""
        self._let_through.clear()

    def release_handshakes(self) -> None:
        """Answer the held upgrade requests and every later one."""
        self._let_through.set()

    def wait_all_closed(self, timeout: float = 5) -> None:
        """Wait until no connection is open."""
        if not self._wait(lambda: not self._open, timeout):
            raise TimeoutError(f"{len(self._open)} connection(s) still open after {timeout}s")

    @property
    def client_close_codes(self) -> list[int | None]:
        """Per ended connection, the client's close code (None: it just dropped the socket)."""
        with self._cond:
            return list(self._client_close_codes)

    def wait_handshake_held(self, timeout: float = 5) -> None:
        """Wait until a client is in its handshake, held by hold_handshakes()."""
        if not self._wait(lambda: self._handshakes_waiting > 0, timeout):
            raise TimeoutError(f"no handshake was held within {timeout}s")

    def _handle(self, conn: ServerConnection) -> None:
        with self._cond:
            self._open.append(conn)
            self._opened_total += 1
            hello = {
                "type": "hello",
                "num_connections": len(self._open),
                "debug_info": {
                    "host": "applink-fakeslack",
                    "build_number": 1,
                    "approximate_connection_time": 18060,
                },
                "connection_info": {"app_id": self._ws.app_id},
            }
            self._cond.notify_all()
        try:
            # Slack greets every connection with hello; slack_sdk only logs it.
            self._send(conn, hello)
            for raw in conn:
                self._receive(raw)
        except ConnectionClosed:
            pass  # slack_sdk drops the TCP socket without a close frame: that is normal
        finally:
            received = conn.protocol.close_rcvd
            with self._cond:
                self._open.remove(conn)
                self._client_close_codes.append(received.code if received is not None else None)
                self._cond.notify_all()

    def _receive(self, raw: str | bytes) -> None:
        try:
            message = json.loads(raw)
        except ValueError:
            message = {"_raw": raw if isinstance(raw, str) else raw.decode("utf-8", "replace")}
        if not isinstance(message, dict):
            message = {"_raw": message}
        with self._cond:
            self._received.append(message)
            eid = message.get("envelope_id")
            # The first ack counts, as at Slack; later ones are only kept in received().
            if isinstance(eid, str) and eid not in self._acks:
                self._acks[eid] = message
            self._cond.notify_all()

    def _send(self, conn: ServerConnection, message: JsonDict) -> None:
        with self._send_lock:
            conn.send(json.dumps(message))

    def _wait(self, predicate: Any, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        with self._cond:
            while not predicate():
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                self._cond.wait(remaining)
            return True

    # -- test API ----------------------------------------------------------------------

    @property
    def open_connections(self) -> int:
        """How many clients are connected now."""
        with self._cond:
            return len(self._open)

    @property
    def connections_opened(self) -> int:
        """How many connections were ever accepted (grows with each reconnect)."""
        with self._cond:
            return self._opened_total

    def wait_connected(self, timeout: float = 5, *, total: int | None = None) -> None:
        """Wait for an open connection (and, with total=, for that many ever opened)."""

        def ready() -> bool:
            return bool(self._open) and (total is None or self._opened_total >= total)

        if not self._wait(ready, timeout):
            raise TimeoutError(
                f"no Socket Mode connection within {timeout}s "
                f"(open={len(self._open)}, opened so far={self._opened_total})"
            )

    def push(
        self,
        envelope_type: str,
        payload: JsonDict,
        *,
        retry_attempt: int = 0,
        retry_reason: str = "",
        accepts_response_payload: bool | None = None,
        envelope_id: str | None = None,
        timeout: float = 5,
    ) -> str:
        """Send one envelope to the newest connection (as Slack, to one of them) -> id."""
        if envelope_type not in ENVELOPE_TYPES:
            raise ValueError(f"envelope_type must be one of {ENVELOPE_TYPES}")
        eid = envelope_id or str(uuid.uuid4())
        if accepts_response_payload is None:
            accepts_response_payload = _accepts_response(envelope_type, payload)
        envelope: JsonDict = {
            "envelope_id": eid,
            "payload": copy.deepcopy(payload),
            "type": envelope_type,
            "accepts_response_payload": accepts_response_payload,
        }
        if envelope_type == "events_api":
            # Only Events API deliveries carry retry fields; the first one has 0 and "".
            envelope["retry_attempt"] = retry_attempt
            envelope["retry_reason"] = retry_reason
        self.wait_connected(timeout)
        with self._cond:
            candidates = list(reversed(self._open))
            self._envelopes[eid] = envelope
        for conn in candidates:
            try:
                self._send(conn, envelope)
                return eid
            except ConnectionClosed:
                continue
        raise ConnectionError("every Socket Mode connection closed before the envelope went out")

    def redeliver(self, envelope_id: str, reason: str = "timeout", **kwargs: Any) -> str:
        """Send an Events API envelope again as Slack's retry would: same payload, attempt+1."""
        with self._cond:
            old = copy.deepcopy(self._envelopes[envelope_id])
        return self.push(
            old["type"],
            old["payload"],
            retry_attempt=int(old.get("retry_attempt", 0)) + 1,
            retry_reason=reason,
            accepts_response_payload=old["accepts_response_payload"],
            **kwargs,
        )

    def wait_ack(self, envelope_id: str, timeout: float = 5) -> JsonDict:
        """The client's ack ({"envelope_id", optional "payload"}), or TimeoutError."""
        if not self._wait(lambda: envelope_id in self._acks, timeout):
            raise TimeoutError(
                f"no ack for envelope {envelope_id} within {timeout}s "
                "(Bolt sends none when no listener matched or the listener raised)"
            )
        with self._cond:
            return copy.deepcopy(self._acks[envelope_id])

    def acks(self) -> list[JsonDict]:
        """Every first ack, in arrival order."""
        with self._cond:
            return copy.deepcopy(list(self._acks.values()))

    def envelopes(self) -> list[JsonDict]:
        """Every envelope pushed, in order."""
        with self._cond:
            return copy.deepcopy(list(self._envelopes.values()))

    def received(self) -> list[JsonDict]:
        """Every message clients sent, acks included, in arrival order."""
        with self._cond:
            return copy.deepcopy(self._received)

    def disconnect_all(self, reason: str = "refresh_requested", *, grace: float = 2) -> None:
        """Slack's refresh: send {"type": "disconnect"}, let clients reconnect, close the old."""
        with self._cond:
            old, opened_before = list(self._open), self._opened_total
        notice = {
            "type": "disconnect",
            "reason": reason,
            "debug_info": {"host": "applink-fakeslack"},
        }
        for conn in old:
            with contextlib.suppress(ConnectionClosed):
                self._send(conn, notice)
        self._wait(lambda: self._opened_total > opened_before, grace)
        self._close(old, 1001, "going away")

    def drop_all(self, *, abrupt: bool = False) -> None:
        """Close every connection without warning: a close frame, or (abrupt) a dead TCP link."""
        with self._cond:
            old = list(self._open)
        if not abrupt:
            self._close(old, 1001, "going away")
            return
        for conn in old:
            with contextlib.suppress(OSError):
                conn.socket.shutdown(socket.SHUT_RDWR)

    def _close(self, conns: list[ServerConnection], code: int, reason: str) -> None:
        """Close connections and wait until their handlers have forgotten them."""
        for conn in conns:
            conn.close(code, reason)
        # close() returns after the closing handshake; the handler thread unregisters a
        # moment later, and callers expect open_connections to be up to date.
        self._wait(lambda: not any(c in self._open for c in conns), 2)
