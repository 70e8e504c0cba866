"""Composition root: `python -m bot ...` and the `paperclub` console script."""

from __future__ import annotations

import sys

from bot.cli.main import main as cli_main


def main() -> None:
    """Run the CLI and exit with its status."""
    sys.exit(cli_main(argv=sys.argv[1:]))


if __name__ == "__main__":
    main()
