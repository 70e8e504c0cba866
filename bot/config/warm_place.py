"""Where a running bot answers `paperclub search` (bot/cli/warm_server.py) and what the command
tells it of its environment: read here, as every setting is, with the standard library alone
(the command imports this before anything heavier: bot/cli/warm_client.py)."""

from __future__ import annotations

import os
from collections.abc import Mapping


def folder() -> str:
    """The folder of this user's running bots' sockets: $XDG_RUNTIME_DIR/paperclub when the
    session has one (private to the user, emptied at logout), else $TMPDIR (or /tmp)
    /paperclub-UID. Whoever uses it checks first that only this user may enter it."""
    runtime = os.environ.get("XDG_RUNTIME_DIR", "")
    if os.path.isabs(runtime):
        return os.path.join(runtime, "paperclub")
    base = os.environ.get("TMPDIR", "")
    shared = base if os.path.isabs(base) else "/tmp"  # noqa: S108 (used only when private)
    return os.path.join(shared, f"paperclub-{os.getuid()}")


def environment() -> dict[str, str]:
    """The command's environment, whole: the bot reads the command's settings from it (and
    from the .env of the command's folder) as the command itself would."""
    return dict(os.environ)


def libpq(*, environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """The variables PostgreSQL's client library fills a URL's gaps from (PGHOST, PGPORT,
    PGDATABASE, PGUSER, PGSERVICE, PGOPTIONS...) in `environ` (default: this process's): one
    URL names another database where they differ."""
    source = os.environ if environ is None else environ
    return {name: value for name, value in source.items() if name.startswith("PG")}
