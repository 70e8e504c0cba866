"""A reader that closed the pipe early (`paperclub queue | head`): the command ends quietly,
as Python's docs on SIGPIPE recommend. Only the standard library: the warm search's client
uses it too (bot/cli/warm_client.py)."""

from __future__ import annotations

import os
import sys

# What a shell reports for a command ended by SIGPIPE (128 + 13).
BROKEN_PIPE = 141


def reader_gone() -> int:
    """After a BrokenPipeError on standard output: further writes (the interpreter's own flush
    at exit) go nowhere instead of raising; the status to exit with."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
    return BROKEN_PIPE
