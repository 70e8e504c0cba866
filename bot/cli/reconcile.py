"""`paperclub reconcile`: when each channel's recent posts were last read back from their
platform and what that found; `--now` asks the running bot (whichever replica leads) to read
them back, through the archive, which it looks at every minute."""

from __future__ import annotations

import argparse
import json
from typing import Any

from bot.cli.archive import open_database
from bot.config.settings import Settings
from bot.messages import as_plain, message
from bot.ports.reconcile import ReconcileStatus
from bot.runtime.clock import SystemClock
from bot.services import reconcile_admin
from bot.wording.reconcile import status_line

# Only chat platforms lose events; the console is its own process.
PLATFORMS = ("slack", "discord")


def add_parser(*, sub: Any) -> None:
    """`reconcile [--json] [--now]`."""
    group = sub.add_parser(
        "reconcile", help="when votes and replies missed while down were last read back"
    )
    group.add_argument("--json", action="store_true", help="print it as JSON")
    group.add_argument(
        "--now", action="store_true", help="ask the running bot to read every channel back now"
    )


def cmd_reconcile(*, args: argparse.Namespace, settings: Settings) -> int:
    """Print every followed channel's reconciliation; with --now, ask for one first."""
    database = open_database(settings=settings)
    try:
        if args.now:
            since = SystemClock().now()
            for platform in PLATFORMS:
                with database() as store:
                    store.want_reconcile(platform=platform, since=since)
        found = reconcile_admin.statuses(uow=database, channels=None)
    finally:
        database.dispose()
    if args.json:
        print(json.dumps([_row(status=s) for s in found], indent=2))
        return 0
    if not found:
        print("No channel follows the reading list yet.")
    for status in found:
        print(f"{status.channel}: {_line(status=status)}")
    if args.now:
        print("Asked: the running bot reads these back within a minute.")
    return 0


def _row(*, status: ReconcileStatus) -> dict[str, object]:
    """One channel as JSON (times in ISO 8601, UTC)."""

    def iso(value: object) -> str | None:
        return value.isoformat() if hasattr(value, "isoformat") else None

    return {
        "channel": str(status.channel),
        "window_days": status.window_days,
        "wanted_at": iso(status.wanted_at),
        "started_at": iso(status.started_at),
        "finished_at": iso(status.finished_at),
        "running": status.running,
        "changes": status.changes,
        "failures": status.failures,
    }


def _line(*, status: ReconcileStatus) -> str:
    """One channel in words, as the Home says it."""
    return as_plain(message=message(status_line(status=status)))
