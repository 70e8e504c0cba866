"""This process: its name on the posts it claims, whether another claim's owner lives, and
which of its threads takes the stop signals."""

from __future__ import annotations

import os
import secrets
import signal
import socket
from collections.abc import Iterator
from contextlib import contextmanager

STOP_SIGNALS = frozenset({signal.SIGINT, signal.SIGTERM})


@contextmanager
def signals_held() -> Iterator[None]:
    """Hold SIGINT and SIGTERM off this thread while the block starts threads: they inherit
    the mask, so the kernel delivers the signals to the main thread only. Left to pick, it may
    choose a busy worker, and a main thread blocked in input() or a wait never hears of it.
    A signal that arrives meanwhile is delivered when the block ends."""
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def claim_owner() -> str:
    """This process's name on the posts it claims: host, pid and a nonce (pids get reused)."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"


OWNER = claim_owner()


def owner_alive(owner: str) -> bool:
    """Whether a claim's owner may still be running; unknown hosts are assumed alive."""
    host, _, rest = owner.partition(":")
    pid_text = rest.partition(":")[0]
    if host != socket.gethostname() or not pid_text.isdigit():
        return True
    if int(pid_text) == os.getpid():
        return owner == OWNER
    try:
        os.kill(int(pid_text), 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
