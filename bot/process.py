"""This process: its name on the posts it claims, and whether another claim's owner lives."""

from __future__ import annotations

import os
import secrets
import socket


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
