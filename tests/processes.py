"""Stopping a `paperclub run` subprocess the way a supervisor does, without leaking it."""

from __future__ import annotations

import signal
import subprocess

import pytest


def stop_and_reap(process: subprocess.Popen[str], *, timeout: float = 30) -> str:
    """SIGTERM, wait for the exit, and return the rest of stderr; a hang is killed and fails."""
    process.send_signal(signal.SIGTERM)
    try:
        return process.communicate(timeout=timeout)[1] or ""
    except subprocess.TimeoutExpired:
        # Killed and reaped here: left running, it would fail a later test as a ResourceWarning.
        process.kill()
        rest = process.communicate()[1] or ""
        pytest.fail(f"`run` did not stop within {timeout} s of SIGTERM; its stderr:\n{rest}")
