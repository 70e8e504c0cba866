"""What `paperclub search` and a running bot say to each other over a local socket: where the
sockets live and who may use them, and the one request and answer, a JSON object each way.

Only the standard library, and little of it: the client imports this module alone, so a search
a running bot answers costs a Python start and a round trip, not SQLAlchemy's import.
"""

from __future__ import annotations

import json
import os
import stat

VERSION = 1  # both sides check it: a bot of another version declines, the client searches itself
SUFFIX = ".sock"
REQUEST_LIMIT = 1 << 20  # bytes; a request is the arguments, the working folder and environment
# A running bot answers in milliseconds; one frozen (a debugger, a stopped container) must not
# hold the command long: past this the client searches in its own process instead.
ANSWER_SECONDS = 10.0


def private(*, path: str) -> bool:
    """Whether `path` is a real folder (not a link) of this user's that nobody else may enter or
    write: in a shared /tmp another user could otherwise plant a socket that reads our queries
    or answers them falsely."""
    try:
        found = os.lstat(path)
    except OSError:
        return False
    return (
        stat.S_ISDIR(found.st_mode)
        and found.st_uid == os.getuid()
        and stat.S_IMODE(found.st_mode) & 0o077 == 0
    )


def sockets(*, place: str) -> list[str]:
    """The socket files in `place`, newest first (the bot started last is the likeliest one
    still running)."""
    try:
        names = [name for name in os.listdir(place) if name.endswith(SUFFIX)]
    except OSError:
        return []
    paths = [os.path.join(place, name) for name in names]

    def started(path: str) -> float:
        """When the socket was made; a vanished one sorts last."""
        try:
            return os.lstat(path).st_mtime
        except OSError:
            return 0.0

    return sorted(paths, key=started, reverse=True)


def request(*, argv: list[str], cwd: str, env: dict[str, str]) -> bytes:
    """A search request: the arguments after `search`, and what the bot needs to read the
    client's settings as the client would (its working folder, for .env and a relative SQLite
    path, and its environment)."""
    return json.dumps({"v": VERSION, "argv": argv, "cwd": cwd, "env": env}).encode()


def answer(*, code: int, stdout: str, stderr: str) -> bytes:
    """The search was run: what the command prints and its exit status."""
    body = {"v": VERSION, "served": True, "code": code, "stdout": stdout, "stderr": stderr}
    return json.dumps(body).encode()


def declined(*, why: str) -> bytes:
    """The bot will not answer this one (another database, another version, options it cannot
    read): the client searches in its own process, which says what is wrong if anything is."""
    return json.dumps({"v": VERSION, "served": False, "why": why}).encode()


def read_answer(*, data: bytes) -> tuple[int, str, str] | None:
    """A served answer's exit status, standard output and standard error; None for a decline
    or anything unreadable."""
    try:
        body = json.loads(data)
    except ValueError:
        return None
    if not isinstance(body, dict) or body.get("v") != VERSION or body.get("served") is not True:
        return None
    code, stdout, stderr = body.get("code"), body.get("stdout"), body.get("stderr")
    if isinstance(code, int) and isinstance(stdout, str) and isinstance(stderr, str):
        return code, stdout, stderr
    return None
