"""`paperclub embed` and `paperclub related`: the semantic extra from the command line."""

from __future__ import annotations

import argparse
import json
import time
from datetime import UTC, datetime
from typing import Any

from bot.cli.archive import CliError, chosen_workspace, open_database, progress_bar
from bot.config.settings import Settings
from bot.messages import as_plain
from bot.ports import Semantic
from bot.semantic.lazy import semantic_extra_for, semantic_for
from bot.services import embedding, related


def add_parser(*, sub: Any, workspace_help: str) -> None:
    """`embed [--batch N] [--json]` and `related REFERENCE... [--workspace WS] [--json]`."""
    embed = sub.add_parser("embed", help="give every paper its vector for semantic search")
    embed.add_argument("--batch", type=int, default=8, metavar="N", help="texts a batch (8)")
    embed.add_argument("--json", action="store_true", help="print the outcome as JSON")
    near = sub.add_parser("related", help="the papers read that are closest to one paper")
    near.add_argument("reference", nargs="+", metavar="REFERENCE", help="arXiv id, DOI or title")
    near.add_argument("--workspace", metavar="WS", help=workspace_help)
    near.add_argument("--json", action="store_true")


def _semantic(*, settings: Settings) -> Semantic:
    """The extra, or a CliError saying what to install (or that it is turned off)."""
    semantic, why = semantic_for(enabled=settings.semantic)
    if semantic is None:
        raise CliError(why)
    return semantic


def cmd_embed(*, args: argparse.Namespace, settings: Settings) -> int:
    """`paperclub embed`: vectors for every paper without one, resumable, with progress."""
    if args.batch < 1:
        raise CliError("--batch must be 1 or more")
    semantic = _semantic(settings=settings)
    database = open_database(settings=settings)
    started = time.perf_counter()
    try:
        with database(write=False) as store:
            todo = store.count_to_embed(model=semantic.model)
        bar = None if args.json else progress_bar(total=todo, label="embedding", minimum=1)
        now = lambda: datetime.now(UTC)  # noqa: E731  (the clock of each batch's rows)
        if bar is None:
            made = embedding.embed_pending(
                uow=database, semantic=semantic, now=now, batch=args.batch
            )
        else:
            with bar:
                task = bar.add_task("embed", total=todo)
                made = embedding.embed_pending(
                    uow=database,
                    semantic=semantic,
                    now=now,
                    batch=args.batch,
                    progress=lambda done, _total: bar.update(task, completed=done),
                )
    finally:
        database.dispose()
    seconds = time.perf_counter() - started
    if args.json:
        print(json.dumps({"model": semantic.model, "embedded": made, "seconds": round(seconds, 2)}))
    elif made:
        print(f"Gave {made} papers their vectors ({semantic.model}) in {seconds:.1f} s.")
    else:
        print(f"Every paper already has its vector ({semantic.model}).")
    return 0


def cmd_related(*, args: argparse.Namespace, settings: Settings) -> int:
    """`paperclub related`: /paperclub related for the operator, who sees every channel."""
    database = open_database(settings=settings)
    try:
        workspace = chosen_workspace(database=database, named=args.workspace)
        # The operator on the server sees the whole workspace, private channels included.
        found = related.find(
            uow=database,
            text=" ".join(args.reference),
            workspace=workspace,
            viewer=None,
            semantic_extra=semantic_extra_for(enabled=settings.semantic),
        )
    finally:
        database.dispose()
    if isinstance(found, str):
        raise CliError(found)
    paper, near = found
    if args.json:
        rows = [
            {
                "title": r.title,
                "date": r.date.isoformat(),
                "permalink": r.permalink,
                "votes": {"up": r.votes.up, "down": r.votes.down},
            }
            for r in near
        ]
        print(
            json.dumps(
                {"paper": {"id": paper.id, "title": paper.title}, "related": rows},
                indent=2,
                ensure_ascii=False,
            )
        )
        return 0
    from bot.wording import semantic as words

    print(as_plain(message=words.related_reply(title=paper.title, related=near)))
    return 0
