"""`paperclub secrets`: a new key for PAPERCLUB_SECRET_KEY, and key rotation of stored tokens."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from bot.config.settings import Settings


def add_parser(*, sub: Any) -> None:
    """`secrets new-key` and `secrets rotate [--json]` under the CLI's subcommands."""
    secrets = sub.add_parser(
        "secrets", help="encryption keys of stored secrets (Slack tokens, Zotero keys)"
    )
    action = secrets.add_subparsers(dest="secrets_command", required=True, metavar="ACTION")
    action.add_parser("new-key", help="print a fresh key to put first in PAPERCLUB_SECRET_KEY")
    rotate = action.add_parser(
        "rotate",
        help="re-encrypt stored tokens and Zotero keys with the first key of PAPERCLUB_SECRET_KEY",
    )
    rotate.add_argument("--json", action="store_true", help="print the outcome as JSON")


def cmd_secrets(*, args: argparse.Namespace, settings: Settings) -> int:
    """Run the chosen action (the crypto library is loaded only here)."""
    from bot.sealing import new_key

    if args.secrets_command == "new-key":
        print(new_key())
        return 0
    return _rotate(as_json=bool(args.json), settings=settings)


def _rotate(*, as_json: bool, settings: Settings) -> int:
    """Re-seal every token; progress on stderr, the outcome on stdout. Keys are never shown."""
    from bot.cli.archive import CliError, open_database
    from bot.db.zotero_keys import reseal_zotero_keys
    from bot.sealing import TokenCipher, UnreadableToken
    from bot.slack.oauth.rotate import Rotated, rotate_tokens

    if not settings.secret_keys:
        raise CliError(
            "secrets rotate: set PAPERCLUB_SECRET_KEY (the new key first, then the old ones) as "
            "the bot runs with it, and SLACK_CLIENT_ID and SLACK_CLIENT_SECRET when Slack is "
            "distributed"
        )
    oauth = settings.slack_distribution
    cipher = TokenCipher(keys=settings.secret_keys)
    database = open_database(settings=settings)

    def progress(done: int, total: int) -> None:
        """One line per tenth of the rows, for people; nothing for --json."""
        step = max(1, total // 10)
        if not as_json and (done == total or done % step == 0):
            print(f"re-encrypted {done}/{total} rows", file=sys.stderr)

    try:
        zotero = reseal_zotero_keys(engine=database.engine, cipher=cipher)
        outcome = (
            rotate_tokens(engine=database.engine, cipher=cipher, progress=progress)
            if oauth is not None
            else Rotated(rows=0, tokens=0, unsealed=0)
        )
    except UnreadableToken as exc:
        raise CliError(f"secrets rotate: {exc}; nothing more was changed") from None
    finally:
        database.dispose()
    if as_json:
        report = {
            "rows": outcome.rows,
            "tokens": outcome.tokens,
            "unsealed": outcome.unsealed,
            "zotero_keys": zotero,
            "keys": len(settings.secret_keys),
        }
        print(json.dumps(report))
    else:
        print(
            f"Re-encrypted {outcome.tokens} token(s) in {outcome.rows} row(s) and {zotero} "
            f"Zotero key(s) with the first key; {outcome.unsealed} token(s) had been stored "
            "unencrypted. Old keys can be dropped now."
        )
    return 0
