"""`paperclub enrich`: find the papers we know only in part in arXiv and Crossref."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from bot.cli.archive import CliError, open_database, progress_bar
from bot.config.settings import Settings
from bot.enrich.service import PaperEnriched, Result, confirm, enrich, record_of, summary
from bot.enrich.setup import make_sources
from bot.runtime.clock import SystemClock

WORDS = {
    Result.FOUND: "found",
    Result.UNCHANGED: "already complete",
    Result.UNCLEAR: "unclear (confirm by hand)",
    Result.NONE: "no match",
    Result.UNREACHABLE: "unreachable",
}


def _shown(value: object, *, limit: int = 70) -> str:
    """A field value on one line."""
    text = " ".join(str(value).split()) if value not in (None, "", []) else "—"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _text(*, outcome: PaperEnriched) -> list[str]:
    """The lines about one paper."""
    lines = [f"#{outcome.paper_id} {_shown(outcome.title, limit=60)}: {WORDS[outcome.result]}"]
    lines += [f"    {c.field}: {_shown(c.before)} -> {_shown(c.after)}" for c in outcome.changes]
    if outcome.result is Result.UNCLEAR:
        lines += [
            f"    {n}. {_shown(c.title)} ({c.arxiv_id or c.doi})"
            for n, c in enumerate(outcome.candidates, start=1)
        ]
        lines.append(f"    pick one: paperclub enrich {outcome.paper_id} --pick N")
    return lines


def cmd_enrich(*, args: argparse.Namespace, settings: Settings) -> int:
    """Ask, decide, apply (or, with --dry-run, only say); a summary at the end."""
    if args.pick is not None:
        return _pick(args=args, settings=settings)
    database = open_database(settings=settings)
    try:
        sources = make_sources(settings=settings, uow=database, clock=SystemClock())
        with database(write=False) as store:
            total = len(store.papers_to_enrich(ids=args.ids or None))
        bar = None if args.json else progress_bar(total=total, label="enriching", minimum=1)

        def run(tick: Any = None) -> list[PaperEnriched]:
            """The service, with the CLI's clock."""
            return enrich(
                uow=database,
                sources=sources,
                now=SystemClock().now(),
                ids=args.ids or None,
                dry_run=args.dry_run,
                progress=tick,
            )

        if bar is None:
            outcomes = run()
        else:
            with bar:
                task = bar.add_task("enrich", total=total)
                outcomes = run(lambda done, _total: bar.update(task, completed=done))
    finally:
        database.dispose()
    counts = summary(outcomes=outcomes)
    if args.json:
        print(
            json.dumps(
                _json(outcomes=outcomes, counts=counts, args=args, down=sources.down),
                ensure_ascii=False,
                indent=2,
            )
        )
        return 0
    for why in sources.down.values():
        print(f"paperclub: {why}; carried on without it.", file=sys.stderr)
    for outcome in outcomes:
        if outcome.result in (Result.FOUND, Result.UNCLEAR):
            print("\n".join(_text(outcome=outcome)))
    said = ", ".join(f"{n} {WORDS[Result(r)]}" for r, n in counts.items())
    note = " (dry run: nothing was changed)" if args.dry_run else ""
    print(
        f"Enrichment of {len(outcomes)} papers: {said}.{note}"
        if outcomes
        else "Every paper is complete: nothing to enrich."
    )
    return 0


def _pick(*, args: argparse.Namespace, settings: Settings) -> int:
    """--pick N: a person confirms one of an unclear match's records."""
    if len(args.ids) != 1 or args.dry_run:
        raise CliError("--pick takes exactly one paper ID (and no --dry-run)")
    database = open_database(settings=settings)
    try:
        done = confirm(uow=database, paper_id=args.ids[0], pick=args.pick, now=SystemClock().now())
    finally:
        database.dispose()
    if done is None:
        raise CliError(f"paper {args.ids[0]} has no record {args.pick} to pick (see enrich --json)")
    print("\n".join(_text(outcome=done)))
    return 0


def _json(
    *,
    outcomes: list[PaperEnriched],
    counts: dict[str, int],
    args: argparse.Namespace,
    down: dict[str, str],
) -> dict[str, Any]:
    """The outcome as JSON: a summary, and each paper with its changes field by field."""
    return {
        "dry_run": bool(args.dry_run),
        "summary": counts,
        "unreachable": down,
        "papers": [
            {
                "id": o.paper_id,
                "title": o.title,
                "result": o.result.value,
                "reason": o.reason,
                "changes": [
                    {
                        "field": c.field,
                        "before": _json_value(c.before),
                        "after": _json_value(c.after),
                    }
                    for c in o.changes
                ],
                "candidates": [record_of(c) for c in o.candidates]
                if o.result is Result.UNCLEAR
                else [],
            }
            for o in outcomes
        ],
    }


def _json_value(value: object) -> object:
    """A field value JSON can hold (dates as ISO text)."""
    return value.isoformat() if hasattr(value, "isoformat") else value
