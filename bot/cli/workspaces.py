"""`paperclub workspaces`: which workspaces the archive holds (with their queued papers), and
`move`, the one command that hands papers imported into one workspace to another."""

from __future__ import annotations

import argparse
import json
from typing import Any

from bot.cli.archive import CliError, open_database
from bot.config.settings import Settings
from bot.services import workspaces


def add_parser(*, sub: Any) -> None:
    """`workspaces [--json]` and `workspaces move --from WS --to WS [--json]`."""
    group = sub.add_parser("workspaces", help="the workspaces and their queues; move papers")
    group.add_argument("--json", action="store_true", help="print them as JSON")
    action = group.add_subparsers(dest="workspaces_command", metavar="ACTION")
    move = action.add_parser("move", help="move every paper of one workspace to another")
    move.add_argument("--from", dest="source", required=True, metavar="WS")
    move.add_argument("--to", dest="target", required=True, metavar="WS")
    move.add_argument("--json", action="store_true", help="print the outcome as JSON")


def cmd_workspaces(*, args: argparse.Namespace, settings: Settings) -> int:
    """List the workspaces, or move papers between two."""
    database = open_database(settings=settings)
    try:
        if args.workspaces_command == "move":
            try:
                done = workspaces.move(uow=database, source=args.source, target=args.target)
            except workspaces.WorkspaceUnknown as exc:
                raise CliError(f"workspaces move: {exc}") from None
            return _print_moved(done=done, as_json=bool(args.json))
        with database(write=False) as store:
            known = store.workspaces()
            queued = store.queued_by_workspace()
    finally:
        database.dispose()
    if args.json:
        rows = [{"workspace": str(key), "queued": queued.get(key, 0)} for key in known]
        print(json.dumps(rows, indent=2))
        return 0
    if not known:
        print("The archive holds no workspace yet: `paperclub import` fills `local`.")
    for key in known:
        print(f"{key}: {queued.get(key, 0)} queued")
    return 0


def _print_moved(*, done: workspaces.Moved, as_json: bool) -> int:
    """Say what moved, and what stayed because the target held it already."""
    if as_json:
        payload = {
            "from": str(done.source),
            "to": str(done.target),
            "moved": done.moved,
            "left": done.left,
        }
        print(json.dumps(payload, indent=2))
        return 0
    noun = "paper" if done.moved == 1 else "papers"
    print(f"Moved {done.moved} {noun} from {done.source} to {done.target}, at the end of its list.")
    if done.left:
        print(f"{done.left} stayed in {done.source}: {done.target} holds them already.")
    return 0
