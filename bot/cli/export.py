"""`paperclub export`: a workspace's papers with their posts, votes and comments, or its
meetings' sessions with their polls, presenters and RSVPs."""

from __future__ import annotations

import argparse
import contextlib
import os
import stat
import sys
import tempfile
from pathlib import Path

from bot import export_sessions
from bot.cli.archive import CliError, chosen_workspace, open_database
from bot.config.settings import Settings
from bot.export_formats import render
from bot.export_sessions import SESSION_FORMATS
from bot.services import listing


def cmd_export(*, args: argparse.Namespace, settings: Settings) -> int:
    """`paperclub export`: every paper (or session), to stdout (no -o, or -o -) or a file
    written atomically."""
    try:
        target = None if str(args.output or "-") == "-" else _export_target(output=args.output)
    except CliError as exc:  # -o names nothing we may write: a usage error, as argparse's own
        print(f"paperclub: {exc}", file=sys.stderr)
        return 2
    database = open_database(settings=settings)
    try:
        workspace = chosen_workspace(database=database, named=args.workspace)
        if args.format in SESSION_FORMATS:
            sessions = listing.sessions(uow=database, workspace=workspace)
            text = export_sessions.render(sessions=sessions, fmt=args.format)
        else:
            records = listing.records(uow=database, workspace=workspace)
            text = render(records=records, fmt=args.format)
    finally:
        database.dispose()
    if target is None:
        sys.stdout.write(text)
        return 0
    _replace(target=target, text=text)
    print(f"Wrote {args.output}", file=sys.stderr)
    return 0


def _export_target(*, output: Path) -> Path:
    """The regular file, or new name in an existing folder, that -o names; CliError for all
    else (the rename would replace it: as root, `-o /dev/full` once removed the device)."""
    try:
        target = output.resolve()  # a symlink's file is written, the link kept
        mode = target.stat().st_mode if target.exists() else None
    except (OSError, RuntimeError) as exc:  # RuntimeError: a symlink loop
        raise CliError(f"{output}: cannot use it ({exc})") from None
    if mode is None:
        if not target.parent.is_dir():
            raise CliError(f"{output}: the folder {target.parent} does not exist")
        return target
    if not stat.S_ISREG(mode):
        kind = "a folder" if stat.S_ISDIR(mode) else "not a regular file"
        raise CliError(f"{output}: is {kind}; name a file to write, or - for stdout")
    return target


def _replace(*, target: Path, text: str) -> None:
    """Write beside the target and rename over it: a failed export leaves the old file whole."""
    name = ""
    try:
        fd, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
        with open(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(fd)  # on disk before the rename makes it the export
        os.replace(name, target)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(name)  # "" when mkstemp itself failed: nothing to remove, quietly
        raise CliError(f"{target}: cannot write it ({exc.strerror or exc})") from None
