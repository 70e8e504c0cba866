"""The CLI edge: parse arguments, call services, print for people or as JSON."""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from sqlalchemy.engine import make_url
from sqlalchemy.exc import OperationalError, SQLAlchemyError

from bot import ingest
from bot.clock import SystemClock
from bot.config import ConfigError, Settings, load_settings
from bot.db.migrate import MigrationsNotFound, upgrade
from bot.db.store import Database
from bot.domain import ImportReport, PaperDraft, Rejection
from bot.export_formats import EXPORT_FORMATS, render
from bot.logs import configure_logging
from bot.services import importing, listing

log = logging.getLogger("paperclub")


class CliError(Exception):
    """A problem to tell the user in one sentence, exit status 1."""


def build_parser() -> argparse.ArgumentParser:
    """Every subcommand and option of `paperclub`."""
    parser = argparse.ArgumentParser(
        prog="paperclub",
        description="Paper Club: one paper a day, votes and threads kept, everything searchable.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    run = sub.add_parser("run", help="migrate, then run the bot (Slack, or the console)")
    run.add_argument("--mode", choices=("auto", "socket", "http", "console"), default="auto")
    sub.add_parser("migrate", help="bring the database schema up to date")
    imp = sub.add_parser("import", help="add papers from reading lists and bibliographies")
    imp.add_argument("paths", nargs="+", metavar="PATH", type=Path)
    imp.add_argument("--format", choices=("auto", *ingest.FORMATS), default="auto")
    imp.add_argument("--channel", metavar="ID", help="queue them for this channel only")
    imp.add_argument("--json", action="store_true", help="print the report as JSON")
    imp.add_argument("-v", "--verbose", action="store_true", help="list the already-known entries")
    queue = sub.add_parser("queue", help="show the next papers, per channel")
    queue.add_argument("--channel", metavar="ID")
    queue.add_argument("--limit", type=int, default=10, metavar="N")
    queue.add_argument("--json", action="store_true")
    export = sub.add_parser("export", help="write every paper with its posts, votes and comments")
    export.add_argument("--format", choices=EXPORT_FORMATS, default="json")
    export.add_argument("-o", "--output", type=Path, metavar="FILE", help="default: stdout")
    return parser


def _database(*, settings: Settings) -> Database:
    """Open the database and bring its schema up to date."""
    database = Database(url=settings.database_url)
    upgrade(engine=database.engine)
    return database


def _read(*, path: Path) -> str:
    """A file's text: UTF-8 (with or without BOM), else Latin-1 so nothing is refused unread."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise CliError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise CliError(f"{path}: is a folder; name the files inside it") from None
    except OSError as exc:
        raise CliError(f"{path}: cannot read it ({exc.strerror})") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        log.warning("%s is not UTF-8; reading it as Latin-1", path)
        return data.decode("latin-1")


def _progress(*, total: int) -> Progress | None:
    """A progress bar on a terminal for long imports; nothing when piped."""
    if total < 200 or not sys.stderr.isatty():
        return None
    return Progress(
        TextColumn("importing"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    )


def cmd_import(*, args: argparse.Namespace, settings: Settings) -> int:
    """`paperclub import`: parse every file, then add what is new."""
    drafts: list[PaperDraft] = []
    rejected: list[Rejection] = []
    for path in args.paths:
        parsed, bad = ingest.parse(path=str(path), text=_read(path=path), fmt=args.format)
        drafts += parsed
        rejected += bad
    database = _database(settings=settings)
    bar = _progress(total=len(drafts))
    try:
        if bar is None:
            report = _run_import(database=database, drafts=drafts, rejected=rejected, args=args)
        else:
            with bar:
                task = bar.add_task("import", total=len(drafts))
                report = _run_import(
                    database=database,
                    drafts=drafts,
                    rejected=rejected,
                    args=args,
                    tick=lambda done, _total: bar.update(task, completed=done),
                )
    finally:
        database.dispose()
    _print_report(report=report, as_json=args.json, verbose=args.verbose)
    return 0


def _run_import(
    *,
    database: Database,
    drafts: list[PaperDraft],
    rejected: list[Rejection],
    args: argparse.Namespace,
    tick: importing.Progress | None = None,
) -> ImportReport:
    """Call the import service with the CLI's clock and options."""
    return importing.import_drafts(
        uow=database,
        drafts=drafts,
        rejected=rejected,
        now=SystemClock().now(),
        added_by="cli",
        channel=args.channel,
        progress=tick,
    )


def _print_report(*, report: ImportReport, as_json: bool, verbose: bool) -> None:
    """Say what the import did; every rejection with file:line and why."""
    if as_json:
        payload = {
            "added": report.added,
            "known": report.known,
            "rejected": [{"origin": r.origin, "reason": r.reason} for r in report.rejected],
        }
        print(json.dumps(payload, indent=2))
        return
    noun = "paper" if report.added == 1 else "papers"
    print(
        f"Added {report.added} {noun}; {report.known} already known; "
        f"{len(report.rejected)} rejected."
    )
    if report.added == 0 and report.known and not report.rejected:
        print("Nothing new: every entry is already in the archive.")
    for rejection in report.rejected:
        print(f"  rejected {rejection.origin}: {rejection.reason}")
    if verbose:
        for origin in report.known_origins:
            print(f"  known    {origin}")


def cmd_queue(*, args: argparse.Namespace, settings: Settings) -> int:
    """`paperclub queue`: the next papers per channel."""
    if args.limit < 1:
        raise CliError("--limit must be 1 or more")
    database = _database(settings=settings)
    try:
        views = listing.queues(uow=database, channel=args.channel, limit=args.limit)
    finally:
        database.dispose()
    if args.json:
        payload = [
            {
                "channel": view.channel,
                "total": view.total,
                "papers": [
                    {"id": p.id, "position": n, "title": p.title, "arxiv_id": p.arxiv_id}
                    for n, p in enumerate(view.papers, start=1)
                ],
            }
            for view in views
        ]
        print(json.dumps(payload, indent=2, ensure_ascii=False))
        return 0
    for view in views:
        where = f"#{view.channel}" if view.channel else "the shared reading list"
        print(
            f"{where}: {view.total} queued"
            + (" — add papers with `paperclub import`" * (not view.total))
        )
        for n, paper in enumerate(view.papers, start=1):
            ref = f"  (arXiv:{paper.arxiv_id})" if paper.arxiv_id else ""
            print(f"  {n:>3}. {paper.title}{ref}")
        if view.total > len(view.papers):
            print(f"       … and {view.total - len(view.papers)} more")
    return 0


def cmd_export(*, args: argparse.Namespace, settings: Settings) -> int:
    """`paperclub export`: every paper, to stdout or a file written atomically."""
    database = _database(settings=settings)
    try:
        text = render(records=listing.records(uow=database), fmt=args.format)
    finally:
        database.dispose()
    if args.output is None:
        sys.stdout.write(text)
        return 0
    target = args.output.resolve()
    if not target.parent.is_dir():
        raise CliError(f"{args.output}: the folder {target.parent} does not exist")
    # Write beside the target and rename: a crash never leaves half an export behind.
    with tempfile.NamedTemporaryFile(
        "w", encoding="utf-8", dir=target.parent, delete=False, suffix=".tmp"
    ) as handle:
        handle.write(text)
    os.replace(handle.name, target)
    print(f"Wrote {args.output}", file=sys.stderr)
    return 0


def cmd_migrate(*, args: argparse.Namespace, settings: Settings) -> int:
    """`paperclub migrate`: bring the schema to the newest revision."""
    _database(settings=settings).dispose()
    print(f"Database is up to date: {_safe_url(url=settings.database_url)}")
    return 0


def cmd_run(*, args: argparse.Namespace, settings: Settings) -> int:
    """`paperclub run`: migrate, then start the platform the settings call for."""
    from bot.runner import run

    return run(settings=settings, mode=args.mode)


COMMANDS = {
    "import": cmd_import,
    "queue": cmd_queue,
    "export": cmd_export,
    "migrate": cmd_migrate,
    "run": cmd_run,
}


def _safe_url(*, url: str) -> str:
    """The database URL without its password, for messages and logs."""
    return make_url(url).render_as_string(hide_password=True)


def main(*, argv: Sequence[str]) -> int:
    """Parse, load settings once, dispatch; turn every expected failure into one clear line."""
    args = build_parser().parse_args(argv)
    try:
        settings = load_settings()
    except ConfigError as exc:
        print(f"paperclub: configuration: {exc}", file=sys.stderr)
        return 2
    configure_logging(level=settings.log_level)
    try:
        return COMMANDS[args.command](args=args, settings=settings)
    except CliError as exc:
        print(f"paperclub: {exc}", file=sys.stderr)
        return 1
    except MigrationsNotFound as exc:
        print(f"paperclub: {exc}", file=sys.stderr)
        return 1
    except OperationalError as exc:
        reason = str(exc.orig).strip() if exc.orig else "unknown reason"
        print(
            f"paperclub: cannot use the database {_safe_url(url=settings.database_url)}: {reason}",
            file=sys.stderr,
        )
        return 1
    except SQLAlchemyError as exc:
        log.exception("database error")
        print(f"paperclub: database error: {type(exc).__name__}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("paperclub: interrupted", file=sys.stderr)
        return 130
