"""The real clock; tests pass their own Clock instead."""

from __future__ import annotations

from datetime import UTC, datetime


class SystemClock:
    """Now, from the operating system, in UTC."""

    def now(self) -> datetime:
        """The current instant, timezone-aware."""
        return datetime.now(UTC)
