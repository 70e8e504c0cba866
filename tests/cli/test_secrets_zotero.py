"""`paperclub secrets rotate` re-seals the Zotero keys the links keep, with or without Slack's
distribution: a key sealed under the old key opens under the new one alone afterwards."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

from bot.db.database import Database
from bot.domain import ChannelKey
from bot.ports.zotero import ZoteroLink
from bot.sealing import PREFIX, TokenCipher, new_key

OLD, NEW = new_key(), new_key()
API_KEY = "P9NiFoyLeZu2bZNvvuQPDWsd"
CHANNEL = ChannelKey(platform="slack", workspace="T0001", channel="C0001")


def _run(*, url: str, cwd: Path, keys: str) -> subprocess.CompletedProcess[str]:
    """`paperclub secrets rotate --json` in a real process, Slack not configured."""
    env = {"PATH": "/usr/bin:/bin", "PAPERCLUB_DATABASE_URL": url, "PAPERCLUB_SECRET_KEY": keys}
    return subprocess.run(
        [sys.executable, "-m", "bot", "secrets", "rotate", "--json"],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_zotero_keys_are_resealed_under_the_new_key(sqlite_url: str, tmp_path: Path) -> None:
    database = Database(url=sqlite_url)
    try:
        with database() as store:
            store.save_zotero_link(
                link=ZoteroLink(
                    channel=CHANNEL,
                    library_kind="groups",
                    library_id=123,
                    sealed_key=str(TokenCipher(keys=[OLD]).seal(value=API_KEY)),
                    connected_by="U1",
                    connected_at=datetime(2026, 12, 1, tzinfo=UTC),
                )
            )
        refused = _run(url=sqlite_url, cwd=tmp_path, keys=NEW)  # the old key is not listed
        assert refused.returncode != 0 and "nothing more was changed" in refused.stderr
        done = _run(url=sqlite_url, cwd=tmp_path, keys=f"{NEW},{OLD}")
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)["zotero_keys"] == 1
        for secret in (NEW, OLD, API_KEY):
            assert secret not in done.stdout + done.stderr + refused.stdout + refused.stderr
        with database(write=False) as store:
            link = store.zotero_link(channel=CHANNEL)
        assert link is not None and link.sealed_key.startswith(PREFIX)
        assert TokenCipher(keys=[NEW]).open(value=link.sealed_key) == API_KEY
    finally:
        database.dispose()
