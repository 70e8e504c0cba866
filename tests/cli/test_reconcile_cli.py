"""`paperclub reconcile`: every followed channel's last read-back, as text and JSON; `--now`
asks the running bot through the archive."""

from __future__ import annotations

import json
import os

from bot.db.database import Database
from bot.domain import ChannelKey
from tests.cli.conftest import Runner
from tests.services.conftest import WEEKDAYS


def _follow(*keys: ChannelKey) -> None:
    """Channels following the list, in the CLI's database."""
    database = Database(url=os.environ["PAPERCLUB_DATABASE_URL"])
    try:
        with database() as store:
            for key in keys:
                store.save_channel(key=key, schedule=WEEKDAYS, private=False)
    finally:
        database.dispose()


def test_status_as_text_and_json_and_an_ask(paperclub: Runner) -> None:
    paperclub("migrate")
    slack = ChannelKey(platform="slack", workspace="T1", channel="C1")
    console = ChannelKey(platform="console", workspace="", channel="terminal")
    _follow(slack, console)
    rows = json.loads(paperclub("reconcile", "--json").stdout)
    assert [(r["channel"], r["finished_at"], r["window_days"]) for r in rows] == [
        (str(slack), None, 7),
        (str(console), None, 7),
    ]
    said = paperclub("reconcile").stdout
    assert f"{slack}: Missed votes and replies: not read back yet" in said
    asked = paperclub("reconcile", "--now").stdout
    assert "the running bot reads these back within a minute" in asked
    rows = json.loads(paperclub("reconcile", "--json").stdout)
    wanted = {r["channel"]: r["wanted_at"] for r in rows}
    assert wanted[str(slack)] is not None  # the console loses nothing: never asked
    assert wanted[str(console)] is None


def test_no_channel_yet(paperclub: Runner) -> None:
    assert "No channel follows the reading list yet." in paperclub("reconcile").stdout
    assert json.loads(paperclub("reconcile", "--json").stdout) == []
