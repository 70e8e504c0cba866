"""What happened, told to whoever keeps the numbers: bot.runtime.metrics, for GET /metrics.

The core and the platform folders may not import bot.runtime.metrics (tests/test_architecture.py:
it is infrastructure, Prometheus), so they tell this port instead: the wiring makes the metrics'
Telemetry and the club carries it to the services and to each platform's build(); whatever is
built by hand (the CLI, a test) passes this base, which drops every report. Label values are
bounded words (a platform, an outcome, an error code), never a person's id, a channel's id or
typed text.
"""

from __future__ import annotations


class Telemetry:
    """The reports the bot makes; this base drops every one (the bot runs without metrics)."""

    def post(self, *, platform: str, outcome: str) -> None:
        """A daily post attempt ended with this outcome (posted, failed, not_due, ...)."""

    def vote(self, *, platform: str, source: str) -> None:
        """A vote was stored, changed or withdrawn, by a button, a reaction or the console."""

    def comment(self, *, platform: str, action: str) -> None:
        """A comment was kept (new), edited (edit) or deleted (delete)."""

    def reconciled(self, *, platform: str, change: str, count: int) -> None:
        """A read-back found `count` changes of one kind: a vote set or withdrawn (vote), a
        comment kept (new), edited (edit) or deleted (delete)."""

    def search(self, *, platform: str, seconds: float) -> None:
        """A search took this long, parsing and fetching one page."""

    def api_error(self, *, platform: str, code: str) -> None:
        """The platform's API answered a call with an error code."""

    def event_lag(self, *, platform: str, seconds: float) -> None:
        """An event reached us this long after the platform stamped it."""
