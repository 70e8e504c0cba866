"""The running bot's socket for `paperclub search` (bot/cli/warm_server.py says what it
answers): who may connect, how much a request may take, how many are answered at once, and a
clean start and stop beside other bots of the same user."""

from __future__ import annotations

import contextlib
import os
import secrets
import socket
import socketserver
import struct
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from bot.cli import warm_wire as wire

# Searches answered at once; more are declined (the command then searches in its own
# process), so that a burst of commands never holds the bot's own connections.
AT_ONCE = 4

Answer = Callable[[bytes], bytes]


@dataclass
class Listening:
    """A socket being answered, and what stops it."""

    path: str
    server: _Server
    thread: threading.Thread

    def close(self) -> None:
        """Stop listening and remove the socket; searches in flight end on their own threads
        (never waited for: a stop must not hang on a slow client)."""
        self.server.shutdown()
        self.server.server_close()
        self.thread.join()
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.path)


def listen(*, place: str, answer: Answer) -> Listening:
    """Answer requests on a new socket in `place` (a private folder) with `answer`, on a thread
    of its own. The socket is bound under a name no client looks at and renamed once it
    listens: bound but not yet listening, it refuses connections, and another bot starting
    meanwhile would take it for a dead one and remove it. OSError when it cannot be made (a
    path too long for a socket address, a full disk)."""
    _remove_dead(place=place)
    name = f"{os.getpid()}-{secrets.token_hex(3)}"
    binding = os.path.join(place, f".{name}.b")  # no longer than the socket's own name: an
    # address holds 107 bytes, and a runtime folder may be deep
    path = os.path.join(place, f"{name}{wire.SUFFIX}")
    server = _Server(binding, _Handler, answer=answer)
    try:
        os.chmod(binding, 0o600)
        os.rename(binding, path)
    except OSError:
        server.server_close()
        with contextlib.suppress(FileNotFoundError):
            os.unlink(binding)
        raise
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.5}, name="warm-search"
    )
    thread.start()
    return Listening(path=path, server=server, thread=thread)


class _Server(socketserver.ThreadingUnixStreamServer):
    """The socket, knowing how to answer, and how many answers are under way."""

    daemon_threads = True
    block_on_close = False  # a stop does not wait for a slow client (see Listening.close)

    def __init__(self, path: str, handler: type[_Handler], *, answer: Answer) -> None:
        """Bind and listen on `path`."""
        self.answer = answer
        self.slots = threading.BoundedSemaphore(AT_ONCE)
        super().__init__(path, handler)


class _Handler(socketserver.BaseRequestHandler):
    """One connection: the peer must be this user; the request is read to its end (the client
    shuts its side) within ANSWER_SECONDS in all, answered, and the connection closed."""

    server: _Server

    def handle(self) -> None:
        """Read, answer, close. The request is read whole even to decline it: closed with
        unread bytes, a Unix socket resets, and the client would lose the answer."""
        conn: socket.socket = self.request
        if not _same_user(conn=conn):
            return
        try:
            request = _read(conn=conn)
            if request is None:
                conn.sendall(wire.declined(why="request too large"))
            elif not self.server.slots.acquire(blocking=False):
                conn.sendall(wire.declined(why="busy"))
            else:
                try:
                    conn.sendall(self.server.answer(request))
                finally:
                    self.server.slots.release()
        except (OSError, TimeoutError):  # the client gave up, went away or dawdled
            return


def _read(*, conn: socket.socket) -> bytes | None:
    """The whole request, or None when it is over REQUEST_LIMIT (read to its end all the
    same); TimeoutError when it is not finished in ANSWER_SECONDS in all (a client trickling
    bytes must not hold a thread)."""
    deadline = time.monotonic() + wire.ANSWER_SECONDS
    chunks: list[bytes] = []
    size = 0
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("the request took too long")
        conn.settimeout(left)
        chunk = conn.recv(1 << 16)
        if not chunk:
            return b"".join(chunks) if size <= wire.REQUEST_LIMIT else None
        size += len(chunk)
        if size <= wire.REQUEST_LIMIT:
            chunks.append(chunk)


def _same_user(*, conn: socket.socket) -> bool:
    """Whether the peer runs as this user (Linux's SO_PEERCRED; where it is missing, the
    folder's and the socket's modes are the guard)."""
    option = getattr(socket, "SO_PEERCRED", None)
    if option is None:
        return True
    pid_uid_gid = conn.getsockopt(socket.SOL_SOCKET, option, struct.calcsize("3i"))
    _pid, uid, _gid = struct.unpack("3i", pid_uid_gid)
    return bool(uid == os.getuid())


def _remove_dead(*, place: str) -> None:
    """Remove the sockets of bots that are gone (killed, so never cleaned up): a connection to
    them is refused. A live one is left alone, another bot on another database perhaps."""
    for path in wire.sockets(place=place):
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
            probe.settimeout(1.0)
            try:
                probe.connect(path)
            except (ConnectionRefusedError, FileNotFoundError):
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(path)
            except OSError:
                continue
