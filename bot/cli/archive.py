"""CLI commands that fill the archive and show its queues: import, queue (export and search are
in cli_export and cli_search)."""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from bot import ingest
from bot.config.settings import Settings
from bot.db.database import Database
from bot.db.migrate import ensure_current
from bot.domain import Channel, ImportReport, PaperDraft, Rejection, WorkspaceKey
from bot.runtime.clock import SystemClock
from bot.semantic.lazy import semantic_for
from bot.services import importing, listing, workspaces

if TYPE_CHECKING:
    from rich.progress import Progress

log = logging.getLogger("paperclub")


class CliError(Exception):
    """A problem to tell the user in one sentence, exit status 1."""


def chosen_workspace(*, database: Database, named: str | None, new: bool = False) -> WorkspaceKey:
    """The workspace `--workspace` names (`new`: one not held yet too), else the only one;
    CliError when that is unclear."""
    try:
        return workspaces.resolve(uow=database, named=named, new=new)
    except workspaces.WorkspaceUnknown as exc:
        raise CliError(f"--workspace: {exc}") from None


def open_database(*, settings: Settings) -> Database:
    """Open the database, its schema brought up to date when behind (a current one costs a
    query, not Alembic: `paperclub search` answers in a blink)."""
    database = Database(url=settings.database_url)
    ensure_current(engine=database.engine)
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
            report, into = _run_import(
                database=database, drafts=drafts, rejected=rejected, args=args
            )
        else:
            with bar:
                task = bar.add_task("import", total=len(drafts))
                report, into = _run_import(
                    database=database,
                    drafts=drafts,
                    rejected=rejected,
                    args=args,
                    tick=lambda done, _total: bar.update(task, completed=done),
                )
        semantic, _why = semantic_for(enabled=settings.semantic)
        with database(write=False) as store:
            partial = len(store.papers_to_enrich(ids=None, untried=True))
            unembedded = store.count_to_embed(model=semantic.model) if semantic else 0
    finally:
        database.dispose()
    _print_report(report=report, as_json=args.json, verbose=args.verbose, into=into)
    if partial and not args.json:
        print(
            f"{partial} papers are known only in part (no id, a cut abstract or a title made "
            "from it): the running bot looks them up in arXiv and Crossref, or run "
            "`paperclub enrich`."
        )
    if unembedded and not args.json:
        print(
            f"{unembedded} {'paper has' if unembedded == 1 else 'papers have'} no vector for "
            "semantic search yet: the running bot makes them in the background, or run "
            "`paperclub embed`."
        )
    # Nothing taken and something refused: a script (or CI) must see that the file was wrong.
    return 1 if report.rejected and not report.added and not report.known else 0


def _run_import(
    *,
    database: Database,
    drafts: list[PaperDraft],
    rejected: list[Rejection],
    args: argparse.Namespace,
    tick: importing.Progress | None = None,
) -> tuple[ImportReport, WorkspaceKey]:
    """Call the import service with the CLI's clock and options: into the workspace of the
    --channel given, else the one --workspace names (or the only one); the report and that
    workspace."""
    channel = _channel(database=database, name=args.channel)
    if channel is None:
        workspace = chosen_workspace(database=database, named=args.workspace, new=True)
    else:
        workspace = channel.key.workspace_key
        if (
            args.workspace is not None
            and chosen_workspace(database=database, named=args.workspace) != workspace
        ):
            raise CliError(f"--channel {args.channel} is not in the workspace {args.workspace}")
    report = importing.import_drafts(
        uow=database,
        drafts=drafts,
        rejected=rejected,
        now=SystemClock().now(),
        added_by="cli",
        queue_channel_id=channel.id if channel is not None else None,
        progress=tick,
        workspace=workspace,
    )
    return report, workspace


def _channel(*, database: Database, name: str | None) -> Channel | None:
    """The followed channel named by --channel (None without one)."""
    if name is None:
        return None
    try:
        return listing.find_channel(uow=database, name=name)
    except listing.UnknownChannel as exc:
        raise CliError(f"--channel: {exc}") from None


def _print_report(
    *, report: ImportReport, as_json: bool, verbose: bool, into: WorkspaceKey
) -> None:
    """Say what the import did and into which workspace; every rejection with file:line and
    why."""
    if as_json:
        rejections = [{"origin": r.origin, "reason": r.reason} for r in report.rejected]
        payload = {
            "workspace": str(into),
            "added": report.added,
            "known": report.known,
            "rejected": rejections,
        }
        print(json.dumps(payload, indent=2))
        return
    noun = "paper" if report.added == 1 else "papers"
    print(
        f"Added {report.added} {noun}; {report.known} already known; "
        f"{len(report.rejected)} rejected."
    )
    print(workspaces.into_words(workspace=into))
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
        chosen = _channel(database=database, name=args.channel)
        workspace = (
            chosen.key.workspace_key
            if chosen is not None
            else chosen_workspace(database=database, named=args.workspace)
        )
        views = listing.queues(uow=database, workspace=workspace, channel=chosen, limit=args.limit)
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
