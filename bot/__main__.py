"""Composition root: `python -m bot ...` and the `paperclub` console script."""

from __future__ import annotations

import sys


def main() -> None:
    """Run the CLI and exit with its status. `paperclub search` first asks a running bot on
    the same database, importing nothing else: the whole CLI (SQLAlchemy, the services) is
    imported only when no bot answers (bot/cli/warm_client.py)."""
    argv = sys.argv[1:]
    if argv[:1] == ["search"]:
        from bot.cli.warm_client import answered

        code = answered(argv=argv[1:])
        if code is not None:
            sys.exit(code)
    from bot.cli.main import main as cli_main

    sys.exit(cli_main(argv=argv))


if __name__ == "__main__":
    main()
