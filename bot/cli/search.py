"""`paperclub search`: the engine of /paperclub search, over one workspace, for people or JSON."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TextIO

from bot.cli.archive import CliError, chosen_workspace, open_database
from bot.config.settings import Settings
from bot.db.database import Database
from bot.domain import HIGHLIGHT_CLOSE, HIGHLIGHT_OPEN
from bot.messages import as_plain, message
from bot.semantic.lazy import semantic_extra_for
from bot.services import search as searching
from bot.services.embedding import SemanticExtra
from bot.services.search_spelled import forgiving_search
from bot.services.telemetry import Telemetry
from bot.wording import archive
from bot.wording import semantic as words


def add_arguments(*, parser: argparse.ArgumentParser, workspace_help: str) -> None:
    """The options of `paperclub search`: the CLI's parser and the warm process's (which
    reads what a `paperclub search` sent it) take them from here."""
    parser.add_argument("query", nargs="+", metavar="QUERY")
    parser.add_argument("--limit", type=int, default=10, metavar="N")
    parser.add_argument("--workspace", metavar="WS", help=workspace_help)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--explain", action="store_true", help="say which engine ranked each hit")
    parser.add_argument(
        "--here",
        action="store_true",
        help="search in this process, even when a running bot on this database could answer",
    )


def cmd_search(*, args: argparse.Namespace, settings: Settings) -> int:
    """`paperclub search` in this process: the same engine as /paperclub search, for people or
    as JSON (a running bot on the same database answers it first: bot/cli/warm_client.py)."""
    database = open_database(settings=settings)
    try:
        return show_search(
            args=args,
            database=database,
            semantic_extra=semantic_extra_for(enabled=settings.semantic),
            stream=sys.stdout,
        )
    finally:
        database.dispose()


def show_search(
    *, args: argparse.Namespace, database: Database, semantic_extra: SemanticExtra, stream: TextIO
) -> int:
    """Search as `args` ask and write the page to `stream`, for people or as JSON; CliError for
    what the user must change. The operator on the server sees the whole workspace, private
    channels included."""

    def say(line: str) -> None:
        """One line of the answer."""
        print(line, file=stream)

    if args.limit < 1:
        raise CliError("--limit must be 1 or more")
    workspace = chosen_workspace(database=database, named=args.workspace)
    result = forgiving_search(
        uow=database,
        text=" ".join(args.query),
        viewer=None,
        semantic_extra=semantic_extra,
        telemetry=Telemetry(),  # a command keeps no metrics
        limit=args.limit,
        workspace=workspace,
    )
    page = result.page
    if args.json:
        hits = [
            {
                "id": hit.paper.id,
                "title": hit.paper.title,
                "authors": list(hit.paper.authors),
                "status": hit.paper.status.value,
                "channel": str(hit.channel) if hit.channel else None,
                "date": hit.post_date.isoformat() if hit.post_date else None,
                "permalink": hit.permalink,
                "votes": {"up": hit.votes.up, "down": hit.votes.down},
                "comments": hit.comments,
                "from_comment": hit.from_comment,
                "snippet": hit.snippet.replace(HIGHLIGHT_OPEN, "").replace(HIGHLIGHT_CLOSE, ""),
                "score": hit.score,
            }
            for hit in page.hits
        ]
        out = {
            "query": result.typed or result.text,
            # The query these hits are for when the typed one found nothing, and a corrected
            # query that finds more ("did you mean"); null when there is none.
            "corrected": result.text if result.typed else None,
            "suggestion": result.suggestion or None,
            "total": page.total,
            "engine": result.engine,
            "hits": hits,
            "notes": list(result.notes),
        }
        if args.explain:
            out["why"] = result.why
            for row, line in zip(hits, explain_lines(result=result), strict=True):
                row["explain"] = line
        say(json.dumps(out, indent=2, ensure_ascii=False))
        return 0
    if not page.hits:
        if args.explain:
            say(f"ranked by {result.engine}: {result.why}")
        tips = as_plain(message=message(archive.NO_HITS_TIPS))
        say(f"No papers or comments match “{result.text}”. {tips}")
        return 0
    if result.typed:
        say(f"No match for “{result.typed}”; showing results for “{result.text}”.")
    say(f"{page.total} match{'es' if page.total != 1 else ''} for “{result.text}”:")
    if args.explain:
        say(f"ranked by {result.engine}: {result.why}")
    reasons = explain_lines(result=result)
    for n, hit in enumerate(page.hits, start=1):
        where = f"{hit.post_date} {hit.channel}" if hit.post_date else hit.paper.status.value
        say(
            f"{n:>3}. {hit.paper.title}  [{where}; +{hit.votes.up}/-{hit.votes.down}; "
            f"{hit.comments} comment{'' if hit.comments == 1 else 's'}]"
        )
        snippet = " ".join(hit.snippet.split())
        say("     " + snippet.replace(HIGHLIGHT_OPEN, "»").replace(HIGHLIGHT_CLOSE, "«"))
        if args.explain:
            say(f"     why: {reasons[n - 1]}")
    for note in result.notes:
        say(f"note: {note}")
    if result.suggestion:
        say(f"Did you mean “{result.suggestion}”? paperclub search {result.suggestion}")
    return 0


def explain_lines(*, result: searching.SearchResult) -> list[str]:
    """Why each hit ranks where it does: its place in each ranking and the fused score."""
    if not result.explained:  # keyword alone: the bm25 score is the whole story
        return [f"bm25 {hit.score:.3g}" for hit in result.page.hits]
    return [words.explain(fused=item) for item in result.explained]
