"""`paperclub watch` and `paperclub suggestions`: a channel's watches and its suggestions from
the shell, as /paperclub watch and /paperclub suggestions show them (`--json` for scripts).

The channel is a followed one by name (C0123, slack:C0123), or any channel by its whole key
(slack:T0123:C0123), since a channel may watch sources without a daily post."""

from __future__ import annotations

import argparse
import json
from typing import Any

from bot.cli.archive import CliError, open_database
from bot.config.settings import Settings
from bot.db.database import Database
from bot.domain import ChannelKey
from bot.messages import as_plain
from bot.ports.sources import Suggestion, Watch
from bot.runtime.clock import SystemClock
from bot.services import listing
from bot.sources.watch_text import WatchTextError, read_watch, watch_text
from bot.wording import sources as words

SHOWN = 50  # suggestions listed, newest first


def add_parser(*, sub: Any) -> None:
    """`watch {list,add,remove}` and `suggestions`."""
    watch = sub.add_parser("watch", help="the sources a channel watches for new papers")
    watch.add_argument("action", choices=("list", "add", "remove"))
    watch.add_argument(
        "what", nargs="*", help="add: arxiv cs.LG keywords: x | feed <url> | crossref <ISSN>"
    )
    watch.add_argument("--channel", required=True, help="C0123, slack:C0123 or slack:T1:C0123")
    watch.add_argument("--json", action="store_true", help="print it as JSON")
    found = sub.add_parser("suggestions", help="a channel's suggestions from its watches")
    found.add_argument("--channel", required=True, help="C0123, slack:C0123 or slack:T1:C0123")
    found.add_argument("--json", action="store_true", help="print them as JSON")


def channel_key(*, database: Database, name: str) -> ChannelKey:
    """The channel --channel names: a followed one, or any by its whole key."""
    parts = name.strip().lstrip("#").split(":")
    try:
        return listing.find_channel(uow=database, name=name).key
    except listing.UnknownChannel as exc:
        if len(parts) == 3 and all(parts[::2]):
            return ChannelKey(platform=parts[0], workspace=parts[1], channel=parts[2])
        raise CliError(f"--channel: {exc}") from None


def _watch_row(*, watch: Watch) -> dict[str, object]:
    """A watch as JSON."""
    spec = watch.spec
    return {
        "number": watch.id,
        "channel": str(watch.channel),
        "kind": spec.kind,
        "target": spec.target,
        "keywords": list(spec.keywords),
        "authors": list(spec.authors),
        "typed": watch_text(spec=spec),
        "added_by": watch.added_by,
        "added_at": watch.added_at.isoformat(),
    }


def _suggestion_row(*, suggestion: Suggestion) -> dict[str, object]:
    """A suggestion as JSON."""
    c = suggestion.candidate
    return {
        "number": suggestion.id,
        "state": suggestion.state,
        "title": c.title,
        "authors": list(c.authors),
        "arxiv_id": c.arxiv_id,
        "doi": c.doi,
        "url": c.url,
        "found_at": suggestion.found_at.isoformat(),
        "shown_on": suggestion.shown_on.isoformat() if suggestion.shown_on else None,
        "reason": suggestion.reason.kind if suggestion.reason else None,
        "decided_by": suggestion.decided_by,
    }


def cmd_watch(*, args: argparse.Namespace, settings: Settings) -> int:
    """List, add or remove a channel's watches."""
    database = open_database(settings=settings)
    try:
        key = channel_key(database=database, name=args.channel)
        now = SystemClock().now()
        if args.action == "add":
            try:
                spec = read_watch(text=" ".join(args.what))
            except WatchTextError as why:
                raise CliError(f"that watch cannot be added: {why}") from None
            with database() as store:
                store.add_watch(channel=key, spec=spec, user="cli", now=now)
        elif args.action == "remove":
            number = args.what[0] if len(args.what) == 1 else ""
            if not number.isdigit():
                raise CliError("remove takes the watch's number, as `paperclub watch list` shows")
            with database() as store:
                if store.remove_watch(channel=key, watch_id=int(number), now=now) is None:
                    raise CliError(f"{key} has no watch #{number}")
        with database(write=False) as store:
            watches = store.watches(channel=key)
    finally:
        database.dispose()
    if args.json:
        print(json.dumps([_watch_row(watch=w) for w in watches], indent=2))
    else:
        print(as_plain(message=words.listed(watches=watches)))
    return 0


def cmd_suggestions(*, args: argparse.Namespace, settings: Settings) -> int:
    """A channel's latest suggestions in every state, newest first."""
    database = open_database(settings=settings)
    try:
        key = channel_key(database=database, name=args.channel)
        with database(write=False) as store:
            found = store.suggestions(
                channel=key,
                states=("waiting", "shown", "promoted", "hidden", "passed"),
                limit=SHOWN,
            )
    finally:
        database.dispose()
    if args.json:
        print(json.dumps([_suggestion_row(suggestion=s) for s in found], indent=2))
        return 0
    if not found:
        print(f"{key} has no suggestions yet.")
        return 0
    for s in found:
        print(f"#{s.id} [{s.state}] {s.candidate.title}")
    print(f"{len(found)} shown (newest first, at most {SHOWN}).")
    return 0
