"""The running bot's side of a warm `paperclub search`: a Unix socket in the user's private
folder (bot/cli/warm_wire.py), answered by the same code as a search run in the command's own
process (bot/cli/search.show_search), on the bot's open archive and loaded model.

A Unix socket rather than the bot's HTTP port: the operator's search sees every channel,
private ones too, so only the same user may ask (a folder only they can enter, a socket only
they can open, and the peer's uid checked), and nothing listens on the network for it.
"""

from __future__ import annotations

import argparse
import io
import json
import logging
import os
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

from sqlalchemy.engine import make_url

from bot.cli import warm_wire as wire
from bot.cli.archive import CliError
from bot.cli.search import add_arguments, show_search
from bot.cli.warm_socket import Listening, listen
from bot.config import warm_place
from bot.config.settings import ConfigError, Settings, load_settings
from bot.db.database import Database
from bot.semantic.lazy import semantic_extra_for
from bot.services.embedding import SemanticExtra

log = logging.getLogger("paperclub")

# The most hits a running bot builds for one command; above it the command searches itself.
LIMIT = 1000


def beside_the_bot(
    *, settings: Settings, database: Database, semantic_extra: SemanticExtra
) -> Callable[[], None]:
    """Answer `paperclub search` while the bot runs (runner.Beside); what it returns stops it."""
    warm = WarmSearch(settings=settings, database=database, semantic_extra=semantic_extra)
    warm.start()
    return warm.close


class WarmSearch:
    """Answers `paperclub search` for clients whose settings name this bot's database, on a
    thread of its own (a thread per request: searches only read)."""

    def __init__(self, *, settings: Settings, database: Database, semantic_extra: SemanticExtra):
        """Keep what a search needs, and what names the bot's own database (its URL made
        absolute, and the PG* variables that fill a PostgreSQL URL's gaps), read once; nothing
        listens before `start`."""
        self.database, self.semantic_extra = database, semantic_extra
        self.mine = _absolute(url=settings.database_url, cwd=os.getcwd())
        self.libpq = warm_place.libpq()
        self.listening: Listening | None = None

    def start(self) -> None:
        """Listen, when the user's socket folder is (or can be made) private; otherwise the
        bot runs on and `paperclub search` searches in its own process, as it says in the log."""
        place = warm_place.folder()
        try:
            os.makedirs(place, mode=0o700, exist_ok=True)
        except OSError as exc:
            log.warning("paperclub search will not be answered warm: %s: %s", place, exc)
            return
        if not wire.private(path=place):
            log.warning(
                "paperclub search will not be answered warm: %s is not a folder only this "
                "user can enter",
                place,
            )
            return
        try:
            self.listening = listen(place=place, answer=lambda data: self.answer(data=data))
        except OSError as exc:
            log.warning("paperclub search will not be answered warm: %s", exc)

    def close(self) -> None:
        """Stop listening and remove the socket."""
        listening, self.listening = self.listening, None
        if listening is not None:
            listening.close()

    def answer(self, *, data: bytes) -> bytes:
        """The answer to one request: the search's output, or a decline (the client then
        searches in its own process, which reports any error in its own words)."""
        try:
            body = json.loads(data)
        except ValueError:
            return wire.declined(why="not JSON")
        if not _well_formed(body=body):
            return wire.declined(why="not a search request of this version")
        try:
            theirs = load_settings(environ=body["env"], cwd=Path(body["cwd"]))
        except ConfigError:
            return wire.declined(why="their settings do not read")
        if _absolute(url=theirs.database_url, cwd=body["cwd"]) != self.mine:
            return wire.declined(why="another database")
        if warm_place.libpq(environ=body["env"]) != self.libpq:
            # PGHOST, PGPORT, PGDATABASE...: the same URL may name another server's database.
            return wire.declined(why="another database")
        if theirs.semantic and self.semantic_extra.index is None:
            return wire.declined(why="they search by meaning too; this bot does not")
        extra = self.semantic_extra if theirs.semantic else semantic_extra_for(enabled=False)
        try:
            args = _parser().parse_args(body["argv"])
        except _Unreadable:
            return wire.declined(why="options this bot cannot read")
        if args.limit > LIMIT:  # the page is built in memory: a huge one stays in its process
            return wire.declined(why=f"more than {LIMIT} hits asked")
        out = io.StringIO()
        try:
            code = show_search(args=args, database=self.database, semantic_extra=extra, stream=out)
        except CliError as exc:
            return wire.answer(code=1, stdout=out.getvalue(), stderr=f"paperclub: {exc}\n")
        except Exception:  # the command's own process reports it, as it would without a bot
            log.exception("a warm paperclub search failed")
            return wire.declined(why="the search failed here")
        return wire.answer(code=code, stdout=out.getvalue(), stderr="")


class _Unreadable(Exception):
    """The arguments do not parse; the client's own parser says why, in its usual words."""


class _Parser(argparse.ArgumentParser):
    """`paperclub search`'s options, raising instead of printing and exiting (this is a bot's
    thread, not the command's process)."""

    def error(self, message: str) -> NoReturn:
        """Refuse the request."""
        raise _Unreadable(message)


def _parser() -> _Parser:
    """A parser of the arguments after `search`, as the CLI's (add_arguments is shared)."""
    # No abbreviations: "--her" is --here to the command's own parser, so a bot that took it
    # for something else would answer what the command was told not to ask it.
    parser = _Parser(
        prog="paperclub search", add_help=False, exit_on_error=False, allow_abbrev=False
    )
    add_arguments(parser=parser, workspace_help="")
    return parser


def _well_formed(*, body: object) -> bool:
    """A request of this version: arguments, a working folder and an environment, all text."""
    if not isinstance(body, dict) or body.get("v") != wire.VERSION:
        return False
    argv, cwd, env = body.get("argv"), body.get("cwd"), body.get("env")
    return (
        isinstance(argv, list)
        and all(isinstance(a, str) for a in argv)
        and isinstance(cwd, str)
        and os.path.isabs(cwd)
        and isinstance(env, dict)
        and all(isinstance(k, str) and isinstance(v, str) for k, v in env.items())
    )


def _absolute(*, url: str, cwd: str) -> str:
    """A database URL with a relative SQLite path made absolute from `cwd` (the default
    sqlite:///paperclub.db names a file in the folder the command runs in)."""
    parsed = make_url(url)
    name = parsed.database
    if parsed.get_backend_name() == "sqlite" and name and name != ":memory:":
        parsed = parsed.set(database=os.path.realpath(os.path.join(cwd, name)))
    return parsed.render_as_string(hide_password=False)
