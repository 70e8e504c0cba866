"""Issue 14, item 6: each edge hardened against the very request or file that showed it. The CLI
runners are the ones tests/cli uses."""

from __future__ import annotations

from tests.cli.conftest import paperclub, paperclub_process

__all__ = ["paperclub", "paperclub_process"]
