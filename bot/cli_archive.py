"""CLI commands over the archive: import, queue, export, search."""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import os
import stat
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from bot import ingest
from bot.clock import SystemClock
from bot.config import Settings
from bot.db.database import Database
from bot.db.migrate import upgrade
from bot.domain import HIGHLIGHT_CLOSE, HIGHLIGHT_OPEN, ImportReport, PaperDraft, Rejection
from bot.export_formats import render
from bot.messages import as_plain, message
from bot.services import importing, listing
from bot.services import search as searching
from bot.wording import archive

if TYPE_CHECKING:
    from rich.progress import Progress

log = logging.getLogger("paperclub")


class CliError(Exception):
    """A problem to tell the user in one sentence, exit status 1."""


def open_database(*, settings: Settings) -> Database:
    """Open the database and bring its schema up to date."""
    database = Database(url=settings.database_url)
    upgrade(engine=database.engine)
    return database


def _read(*, path: Path) -> str:
    """A file's text, in the encoding its BOM names (UTF-8, UTF-16), else UTF-8, else Latin-1."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise CliError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise CliError(f"{path}: is a folder; name the files inside it") from None
    except OSError as exc:
        raise CliError(f"{path}: cannot read it ({exc.strerror})") from None
    text, encoding = ingest.decode(data=data)
    if encoding == "latin-1":
        log.warning("%s is not UTF-8; reading it as Latin-1", path)
    return text


def progress_bar(*, total: int, label: str, minimum: int = 200) -> Progress | None:
    """A progress bar on stderr for a long job on a terminal; nothing when piped (or for fewer
    than `minimum` items)."""
    if total < minimum or not sys.stderr.isatty():
        return None
    # rich only for the bar: this module is imported by every command, `run` included.
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
    from rich.progress import TimeRemainingColumn as Remaining

    columns = (TextColumn(label), BarColumn(), MofNCompleteColumn(), Remaining())
    return Progress(*columns, console=Console(stderr=True), transient=True)


def cmd_import(*, args: argparse.Namespace, settings: Settings) -> int:
    """`paperclub import`: parse every file, then add what is new."""
    drafts: list[PaperDraft] = []
    rejected: list[Rejection] = []
    for path in args.paths:
        parsed, bad = ingest.parse(path=str(path), text=_read(path=path), fmt=args.format)
        drafts += parsed
        rejected += bad
    database = open_database(settings=settings)
    bar = None if args.json else progress_bar(total=len(drafts), label="importing")
    try:
        if bar is None:
            report = _run_import(database=database, drafts=drafts, rejected=rejected, args=args)
        else:
            with bar:
                task = bar.add_task("import", total=len(drafts))
                report = _run_import(
                    database=database, drafts=drafts, rejected=rejected, args=args,
                    tick=lambda done, _total: bar.update(task, completed=done),
                )  # fmt: skip
        with database(write=False) as store:
            partial = len(store.papers_to_enrich(ids=None, untried=True))
    finally:
        database.dispose()
    _print_report(report=report, as_json=args.json, verbose=args.verbose)
    if partial and not args.json:
        print(
            f"{partial} papers are known only in part (no id, a cut abstract or a title made "
            "from it): the running bot looks them up in arXiv and Crossref, or run "
            "`paperclub enrich`."
        )
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
        queue_channel_id=_channel(database=database, name=args.channel),
        progress=tick,
    )


def _channel(*, database: Database, name: str | None) -> int | None:
    """The row id of the followed channel named by --channel (None without one)."""
    if name is None:
        return None
    try:
        return listing.find_channel(uow=database, name=name).id
    except listing.UnknownChannel as exc:
        raise CliError(f"--channel: {exc}") from None


def _print_report(*, report: ImportReport, as_json: bool, verbose: bool) -> None:
    """Say what the import did; every rejection with file:line and why."""
    if as_json:
        rejections = [{"origin": r.origin, "reason": r.reason} for r in report.rejected]
        payload = {"added": report.added, "known": report.known, "rejected": rejections}
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
    database = open_database(settings=settings)
    try:
        chosen = None
        if args.channel is not None:
            try:
                chosen = listing.find_channel(uow=database, name=args.channel)
            except listing.UnknownChannel as exc:
                raise CliError(f"--channel: {exc}") from None
        views = listing.queues(uow=database, channel=chosen, limit=args.limit)
    finally:
        database.dispose()
    if args.json:
        payload = [
            {
                "channel": str(view.channel.key) if view.channel else None,
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
        where = str(view.channel.key) if view.channel else "the shared reading list"
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
    """`paperclub export`: every paper, to stdout (no -o, or -o -) or a file written atomically."""
    try:
        target = None if str(args.output or "-") == "-" else _export_target(output=args.output)
    except CliError as exc:  # -o names nothing we may write: a usage error, as argparse's own
        print(f"paperclub: {exc}", file=sys.stderr)
        return 2
    database = open_database(settings=settings)
    try:
        text = render(records=listing.records(uow=database), fmt=args.format)
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


def cmd_search(*, args: argparse.Namespace, settings: Settings) -> int:
    """`paperclub search`: the same engine as /paperclub search, for people or as JSON."""
    if args.limit < 1:
        raise CliError("--limit must be 1 or more")
    database = open_database(settings=settings)
    try:
        # The operator on the server sees the whole archive, private channels included.
        result = searching.search(
            uow=database, text=" ".join(args.query), viewer=None, limit=args.limit
        )
    finally:
        database.dispose()
    page = result.page
    if args.json:
        hits = [
            {
                "id": hit.paper.id, "title": hit.paper.title, "authors": list(hit.paper.authors),
                "status": hit.paper.status.value,
                "channel": str(hit.channel) if hit.channel else None,
                "date": hit.post_date.isoformat() if hit.post_date else None,
                "permalink": hit.permalink, "votes": {"up": hit.votes.up, "down": hit.votes.down},
                "comments": hit.comments, "from_comment": hit.from_comment,
                "snippet": hit.snippet.replace(HIGHLIGHT_OPEN, "").replace(HIGHLIGHT_CLOSE, ""),
                "score": hit.score,
            }
            for hit in page.hits
        ]  # fmt: skip
        print(json.dumps({"query": result.text, "total": page.total, "hits": hits,
                          "notes": list(result.notes)}, indent=2, ensure_ascii=False))  # fmt: skip
        return 0
    if not page.hits:
        tips = as_plain(message=message(archive.NO_HITS_TIPS))
        print(f"No papers or comments match “{result.text}”. {tips}")
        return 0
    print(f"{page.total} match{'es' if page.total != 1 else ''} for “{result.text}”:")
    for n, hit in enumerate(page.hits, start=1):
        where = f"{hit.post_date} {hit.channel}" if hit.post_date else hit.paper.status.value
        print(f"{n:>3}. {hit.paper.title}  [{where}; +{hit.votes.up}/-{hit.votes.down}; "
              f"{hit.comments} comment{'' if hit.comments == 1 else 's'}]")  # fmt: skip
        snippet = " ".join(hit.snippet.split())
        print("     " + snippet.replace(HIGHLIGHT_OPEN, "»").replace(HIGHLIGHT_CLOSE, "«"))
    for note in result.notes:
        print(f"note: {note}")
    return 0
