"""The CLI edge: parse arguments, call services, print for people or as JSON."""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence
from pathlib import Path

from sqlalchemy.engine import make_url
from sqlalchemy.exc import OperationalError, SQLAlchemyError

from bot import ingest
from bot.cli.archive import CliError, cmd_import, cmd_queue
from bot.cli.export import cmd_export
from bot.cli.pipes import reader_gone
from bot.cli.reconcile import add_parser as add_reconcile
from bot.cli.reconcile import cmd_reconcile
from bot.cli.search import add_arguments as add_search_arguments
from bot.cli.search import cmd_search
from bot.cli.secrets import add_parser as add_secrets
from bot.cli.secrets import cmd_secrets
from bot.cli.semantic import add_parser as add_semantic
from bot.cli.semantic import cmd_embed, cmd_related
from bot.cli.sessions import add_parser as add_sessions
from bot.cli.sessions import cmd_sessions
from bot.cli.sources import add_parser as add_sources
from bot.cli.sources import cmd_suggestions, cmd_watch
from bot.cli.web import add_parser as add_web
from bot.cli.web import cmd_web
from bot.cli.workspaces import add_parser as add_workspaces
from bot.cli.workspaces import cmd_workspaces
from bot.config.settings import ConfigError, Settings, load_settings
from bot.db.migrate import MigrationsNotFound, SchemaTooNew
from bot.export_formats import EXPORT_FORMATS
from bot.export_sessions import SESSION_FORMATS
from bot.ports import ArchiveUnavailable
from bot.runtime.logs import configure_logging
from bot.semantic.encoder import SemanticUnavailable

log = logging.getLogger("paperclub")


# The PostgreSQL drivers SQLAlchemy may ask for; the postgres extra installs psycopg.
_DRIVERS = ("psycopg", "psycopg2")
WORKSPACE_HELP = "slack:TEAM, discord:GUILD, console or local; default: the only one"


def build_parser() -> argparse.ArgumentParser:
    """Every subcommand and option of `paperclub`."""
    parser = argparse.ArgumentParser(
        prog="paperclub",
        description="Paper Club: one paper a day, votes and threads kept, everything searchable.",
    )
    parser.add_argument("--version", action=_Version, help="print the version and exit")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    run = sub.add_parser("run", help="migrate, then run the bot (Slack, or the console)")
    run.add_argument("--mode", choices=("auto", "socket", "http", "console"), default="auto")
    sub.add_parser("migrate", help="bring the database schema up to date")
    imp = sub.add_parser("import", help="add papers from reading lists and bibliographies")
    imp.add_argument("paths", nargs="+", metavar="PATH", type=Path)
    imp.add_argument("--format", choices=("auto", *ingest.FORMATS), default="auto")
    imp.add_argument("--channel", metavar="ID", help="queue them for this channel only")
    imp.add_argument("--json", action="store_true", help="print the report as JSON")
    imp.add_argument("--workspace", metavar="WS", help=WORKSPACE_HELP)
    imp.add_argument("-v", "--verbose", action="store_true", help="list the already-known entries")
    queue = sub.add_parser("queue", help="show the next papers, per channel")
    queue.add_argument("--channel", metavar="ID")
    queue.add_argument("--limit", type=int, default=10, metavar="N")
    queue.add_argument("--workspace", metavar="WS", help=WORKSPACE_HELP)
    queue.add_argument("--json", action="store_true")
    search = sub.add_parser("search", help="search papers and comments, as /paperclub does")
    add_search_arguments(parser=search, workspace_help=WORKSPACE_HELP)
    export = sub.add_parser(
        "export",
        help="write every paper with its posts, votes and comments (sessions-json, "
        "sessions-csv: every meeting session with its poll, presenter and RSVPs)",
    )
    export.add_argument("--format", choices=(*EXPORT_FORMATS, *SESSION_FORMATS), default="json")
    export.add_argument("--workspace", metavar="WS", help=WORKSPACE_HELP)
    export.add_argument("-o", "--output", type=Path, metavar="FILE", help="default: stdout")
    enrich = sub.add_parser("enrich", help="complete titles and abstracts from arXiv and Crossref")
    enrich.add_argument("ids", nargs="*", type=int, metavar="ID", help="just these papers")
    enrich.add_argument("--dry-run", action="store_true", help="show what would change")
    enrich.add_argument("--json", action="store_true", help="print the outcome as JSON")
    enrich.add_argument(
        "--pick",
        type=int,
        metavar="N",
        help="with one ID: apply the Nth record its unclear match listed (a person's choice)",
    )
    add_semantic(sub=sub, workspace_help=WORKSPACE_HELP)
    add_secrets(sub=sub)
    add_web(sub=sub)
    add_workspaces(sub=sub)
    add_reconcile(sub=sub)
    add_sources(sub=sub)
    add_sessions(sub=sub)
    return parser


class _Version(argparse.Action):
    """`--version`: the installed distribution's version, read only when asked (importing
    importlib.metadata on every start would slow `paperclub run`)."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: object) -> None:
        """A flag taking no value."""
        super().__init__(option_strings, dest, nargs=0, help=str(kwargs.get("help", "")))

    def __call__(self, parser: argparse.ArgumentParser, *_args: object, **_kw: object) -> None:
        """Print `paperclub X.Y.Z` and exit 0."""
        from importlib.metadata import PackageNotFoundError, version

        try:
            number = version("paperclub")
        except PackageNotFoundError:  # run from a checkout that was never installed
            number = "unknown (not installed)"
        print(f"paperclub {number}")
        parser.exit(0)


def cmd_migrate(*, args: argparse.Namespace, settings: Settings) -> int:
    """`paperclub migrate`: bring the schema to the newest revision (Alembic itself, even
    when the stored revision says current)."""
    from bot.db.database import Database
    from bot.db.migrate import upgrade

    database = Database(url=settings.database_url)
    try:
        upgrade(engine=database.engine)
    finally:
        database.dispose()
    print(f"Database is up to date: {_safe_url(url=settings.database_url)}")
    return 0


def cmd_run(*, args: argparse.Namespace, settings: Settings) -> int:
    """`paperclub run`: migrate, then start the platform the settings call for."""
    from bot.cli.warm_server import beside_the_bot
    from bot.runtime.runner import run

    return run(settings=settings, mode=args.mode, beside=beside_the_bot)


def cmd_enrich(*, args: argparse.Namespace, settings: Settings) -> int:
    """`paperclub enrich` (its code is loaded only for it)."""
    from bot.cli.enrich import cmd_enrich as enrich

    return enrich(args=args, settings=settings)


COMMANDS = {
    "import": cmd_import,
    "queue": cmd_queue,
    "export": cmd_export,
    "search": cmd_search,
    "migrate": cmd_migrate,
    "enrich": cmd_enrich,
    "secrets": cmd_secrets,
    "run": cmd_run,
    "web": cmd_web,
    "embed": cmd_embed,
    "related": cmd_related,
    "workspaces": cmd_workspaces,
    "reconcile": cmd_reconcile,
    "watch": cmd_watch,
    "suggestions": cmd_suggestions,
    "sessions": cmd_sessions,
}


def _safe_url(*, url: str) -> str:
    """The database URL without its password, for messages and logs."""
    return make_url(url).render_as_string(hide_password=True)


def main(*, argv: Sequence[str]) -> int:
    """Parse, load settings once, dispatch; a reader that closed the pipe early (`| head`)
    ends the command quietly, as Python's docs on SIGPIPE recommend."""
    try:
        code = _dispatch(argv=argv)
        sys.stdout.flush()  # inside: a closed pipe shows on the last write, or here
    except BrokenPipeError:
        return reader_gone()
    return code


def _dispatch(*, argv: Sequence[str]) -> int:
    """Turn every expected failure into one clear line."""
    args = build_parser().parse_args(argv)
    try:
        settings = load_settings()
    except ConfigError as exc:
        print(f"paperclub: configuration: {exc}", file=sys.stderr)
        return 2
    configure_logging(level=settings.log_level, secrets=settings.secrets)
    for warning in settings.unknown:
        log.warning("%s", warning)
    try:
        return COMMANDS[args.command](args=args, settings=settings)
    except ModuleNotFoundError as exc:
        if exc.name not in _DRIVERS:
            raise
        print(
            f"paperclub: PAPERCLUB_DATABASE_URL names PostgreSQL, whose driver ({exc.name}) is "
            "not installed: pip install 'paperclub[postgres]'",
            file=sys.stderr,
        )
        return 1
    except CliError as exc:
        print(f"paperclub: {exc}", file=sys.stderr)
        return 1
    except (MigrationsNotFound, SchemaTooNew, SemanticUnavailable) as exc:
        print(f"paperclub: {exc}", file=sys.stderr)
        return 1
    except OperationalError as exc:
        reason = str(exc.orig).strip() if exc.orig else "unknown reason"
        print(
            f"paperclub: cannot use the database PAPERCLUB_DATABASE_URL="
            f"{_safe_url(url=settings.database_url)}: {reason}",
            file=sys.stderr,
        )
        return 1
    except ArchiveUnavailable as exc:  # a unit of work's own word for the same (bot/db/outage.py)
        print(
            f"paperclub: cannot use the database PAPERCLUB_DATABASE_URL="
            f"{_safe_url(url=settings.database_url)}: {exc}",
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
