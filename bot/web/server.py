"""A waitress server on its own thread, routing exact paths to WSGI callables, with the limits
that keep it answering under abuse, and a clean stop."""

from __future__ import annotations

import contextlib
import errno
import resource
import threading
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from waitress import wasyncore

from bot.web.guard import GuardedServer

StartResponse = Callable[..., Any]
WsgiApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]

# Slack's largest request (a view submission) is far below this; waitress refuses a larger
# body with 413 from its Content-Length, before reading any of it into a temporary file
# (waitress refuses a body of its limit or more, hence MAX_BODY + 1 below).
MAX_BODY = 1_000_000
# waitress buffers a request until it is complete, so a slow client holds a connection, not a
# thread; its default of 100 connections let 110 slow ones shut out /healthz. Over a cap, the
# oldest connection not being served is closed to make room (bot.web.guard). The total is
# lowered to fit the process's open-file limit, keeping some files for the rest of the bot.
CONNECTION_LIMIT = 1000
PER_ADDRESS_LIMIT = 100
FILES_KEPT = 200
# A connection that sends nothing for this long is closed (waitress's default is 120 s).
IDLE_SECONDS = 15
# A request's head and body must arrive within this, however steadily its bytes trickle in
# (Slack's bodies are small and it gives up after 3 s; a browser sends a page request at once).
REQUEST_SECONDS = 10
REASONS = {
    200: "OK",
    301: "Moved Permanently",
    400: "Bad Request",
    401: "Unauthorized",
    404: "Not Found",
    405: "Method Not Allowed",
    413: "Payload Too Large",
    503: "Service Unavailable",
}


def connection_limit() -> int:
    """CONNECTION_LIMIT, or fewer when the open-file limit would not hold that many (an
    accept that fails for want of a file leaves the listener readable: a busy loop)."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return CONNECTION_LIMIT
    return max(16, min(CONNECTION_LIMIT, soft - FILES_KEPT))


class PortTaken(OSError):
    """The address to listen on is in use or cannot be bound; the message says which."""


def send(
    start_response: StartResponse,
    status: int,
    body: str | bytes,
    headers: Iterable[tuple[str, str]] = (),
) -> list[bytes]:
    """Start a response (plain text unless a Content-Type is given) and return its body."""
    data = body.encode() if isinstance(body, str) else body
    extra = [(k, v) for k, v in headers if k.lower() != "content-length"]
    if not any(k.lower() == "content-type" for k, _ in extra):
        extra.append(("Content-Type", "text/plain; charset=utf-8"))
    start_response(
        f"{status} {REASONS.get(status, 'Error')}", [*extra, ("Content-Length", str(len(data)))]
    )
    return [data]


def router(*, routes: Mapping[str, WsgiApp]) -> WsgiApp:
    """One WSGI callable for exact paths, and for every path under a key ending in '/' (the
    web archive's, say); anything else is a 404."""
    table = dict(routes)
    prefixes = sorted((key for key in table if key.endswith("/")), key=len, reverse=True)

    def route(environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        """Hand the request to its path's callable."""
        path = environ.get("PATH_INFO", "")
        app = table.get(path) or next((table[p] for p in prefixes if path.startswith(p)), None)
        if app is None:
            return send(start_response, 404, "not found")
        return app(environ, start_response)

    return route


class HttpService:
    """The server, stopped cleanly: the sockets are closed on the serving thread itself, so its
    poll loop ends because nothing is left to serve (closing them from another thread would
    make the loop fail on a closed socket and leave the connections it still held unclosed).
    Port 0 picks a free one; `port` says which."""

    def __init__(
        self,
        *,
        routes: Mapping[str, WsgiApp],
        host: str,
        port: int,
        request_seconds: float = REQUEST_SECONDS,
        per_address: int = PER_ADDRESS_LIMIT,
    ) -> None:
        """Bind now, so `port` is known before serving (PortTaken when it cannot)."""
        try:
            self.server: Any = GuardedServer(
                router(routes=routes),
                request_seconds=request_seconds,
                per_address=per_address,
                total=connection_limit(),
                host=host,
                port=port,
                threads=8,
                max_request_body_size=MAX_BODY + 1,
                channel_timeout=IDLE_SECONDS,
                cleanup_interval=1,  # how often the deadline is checked, in whole seconds
                # poll(), not select(): select() fails on a file number over 1,023, which a
                # thousand connections reach.
                asyncore_use_poll=True,
                ident="paperclub",
            )
        except OSError as exc:
            why = "is in use" if exc.errno == errno.EADDRINUSE else f"cannot be bound ({exc})"
            raise PortTaken(f"{host}:{port} {why}") from None
        self.port = int(self.server.effective_port)
        self.host = host
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._serve, name="http", daemon=True)

    def _serve(self) -> None:
        """Serve until closed."""
        try:
            self.server.run()
        except (OSError, ValueError):
            if not self._stopping.is_set():
                raise

    def start(self) -> None:
        """Serve requests."""
        self._thread.start()

    def stop(self) -> None:
        """Stop accepting, let the requests in flight finish, then close every connection on
        the serving thread (its loop then ends at once) and join it."""
        self._stopping.set()
        serving = self._on_serving_thread(self._stop_accepting)
        self.server.task_dispatcher.shutdown()
        if serving and self._on_serving_thread(self._close_all):
            self._thread.join(timeout=10)
        self._close_all()  # never started, or the loop died: close what is left from here

    def _on_serving_thread(self, thunk: Callable[[], None]) -> bool:
        """Have the serving thread run `thunk`; False when it no longer serves (it never
        started, or its loop ended and closed the trigger: a write to it then fails)."""
        if not self._thread.is_alive():
            return False
        try:
            self.server.trigger.pull_trigger(thunk)
        except OSError:
            return False
        return True

    def _stop_accepting(self) -> None:
        """Close the listening socket (on the serving thread)."""
        wasyncore.dispatcher.close(self.server)

    def _close_all(self) -> None:
        """Send what the connections still hold, then close them, the listening socket and
        the trigger: nothing is left for the poll loop, nothing is left to the garbage
        collector."""
        for channel in list(self.server._map.values()):
            if getattr(channel, "total_outbufs_len", 0) and hasattr(channel, "_flush_some"):
                with contextlib.suppress(OSError):
                    channel._flush_some()
        wasyncore.close_all(self.server._map, ignore_all=True)
