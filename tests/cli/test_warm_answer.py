"""What a running bot answers on its search socket, request by request (bot/cli/warm_server.py,
in-process on a real archive): a search on its own database is served, anything else declined
so the command searches in its own process; every answer is one JSON object of the wire."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from bot.cli import warm_wire as wire
from bot.cli.warm_server import WarmSearch
from bot.config import warm_place
from bot.config.settings import load_settings
from bot.db.database import Database
from bot.semantic.lazy import semantic_extra_for

ENV = {"PAPERCLUB_SEMANTIC": "off"}


@pytest.fixture
def warm(database: Database, sqlite_url: str, tmp_path: Path) -> WarmSearch:
    """A bot's warm search over the test's archive (its settings read as the bot's are)."""
    settings = load_settings(
        environ=ENV | {"PAPERCLUB_DATABASE_URL": sqlite_url}, env_file=tmp_path / "none"
    )
    return WarmSearch(
        settings=settings, database=database, semantic_extra=semantic_extra_for(enabled=False)
    )


def _ask(*, warm: WarmSearch, argv: list[str], env: dict[str, str], cwd: str) -> dict[str, object]:
    """The answer to one well-formed request, as the client reads the JSON."""
    data = warm.answer(data=wire.request(argv=argv, cwd=cwd, env=env))
    body = json.loads(data)
    assert isinstance(body, dict)
    return body


def test_a_search_on_the_bots_database_is_served(
    warm: WarmSearch, sqlite_url: str, tmp_path: Path
) -> None:
    env = ENV | {"PAPERCLUB_DATABASE_URL": sqlite_url}
    body = _ask(warm=warm, argv=["transformers"], env=env, cwd=str(tmp_path))
    assert body["served"] is True and body["code"] == 0
    assert "No papers or comments match “transformers”" in str(body["stdout"])
    assert wire.read_answer(data=json.dumps(body).encode()) == (0, body["stdout"], "")


def test_the_same_file_named_relatively_is_the_same_database(
    warm: WarmSearch, sqlite_url: str
) -> None:
    path = Path(sqlite_url.removeprefix("sqlite:///"))
    env = ENV | {"PAPERCLUB_DATABASE_URL": f"sqlite:///{path.name}"}
    body = _ask(warm=warm, argv=["x"], env=env, cwd=str(path.parent))
    assert body["served"] is True


def test_the_default_database_is_the_one_in_the_commands_folder(
    database: Database, tmp_path: Path
) -> None:
    """No PAPERCLUB_DATABASE_URL: paperclub.db in the folder the command runs in, not the
    bot's (the default URL is made absolute from the command's folder)."""
    mine = load_settings(environ=ENV, cwd=tmp_path)
    bot = WarmSearch(
        settings=mine, database=database, semantic_extra=semantic_extra_for(enabled=False)
    )
    assert _ask(warm=bot, argv=["x"], env=ENV, cwd=str(tmp_path))["served"] is True
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    body = _ask(warm=bot, argv=["x"], env=ENV, cwd=str(elsewhere))
    assert body["why"] == "another database"


def test_a_users_mistake_is_served_as_the_command_says_it(
    warm: WarmSearch, sqlite_url: str, tmp_path: Path
) -> None:
    env = ENV | {"PAPERCLUB_DATABASE_URL": sqlite_url}
    body = _ask(warm=warm, argv=["--limit", "0", "x"], env=env, cwd=str(tmp_path))
    assert (body["served"], body["code"]) == (True, 1)
    assert body["stderr"] == "paperclub: --limit must be 1 or more\n"


@pytest.mark.parametrize(
    ("argv", "env", "why"),
    [
        (["x"], {"PAPERCLUB_DATABASE_URL": "sqlite:///elsewhere.db"}, "another database"),
        (["x"], {"PAPERCLUB_DATABASE_URL": "not-a-url"}, "their settings do not read"),
        (["x"], {"PAPERCLUB_SEMANTIC": "auto"}, "they search by meaning too; this bot does not"),
        (["--nope", "x"], {}, "options this bot cannot read"),
        (["--her", "x"], {}, "options this bot cannot read"),  # --here, to the command
        (["--he", "x"], {}, "options this bot cannot read"),  # ambiguous, to the command
        (["--limit", "1001", "x"], {}, "more than 1000 hits asked"),
        (["x"], {"PGPORT": "5433"}, "another database"),
        ([], {}, "options this bot cannot read"),
    ],
)
def test_what_the_bot_should_not_answer_is_declined(
    warm: WarmSearch,
    sqlite_url: str,
    tmp_path: Path,
    argv: list[str],
    env: dict[str, str],
    why: str,
) -> None:
    theirs = ENV | {"PAPERCLUB_DATABASE_URL": sqlite_url} | env
    body = _ask(warm=warm, argv=argv, env=theirs, cwd=str(tmp_path))
    assert body == {"v": wire.VERSION, "served": False, "why": why}


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"not json",
        b"[]",
        json.dumps({"v": 999, "argv": ["x"], "cwd": "/", "env": {}}).encode(),
        json.dumps({"v": wire.VERSION, "argv": ["x"], "cwd": "relative", "env": {}}).encode(),
        json.dumps({"v": wire.VERSION, "argv": [1], "cwd": "/", "env": {}}).encode(),
        json.dumps({"v": wire.VERSION, "argv": ["x"], "cwd": "/", "env": {"A": 1}}).encode(),
    ],
)
def test_a_malformed_request_is_declined(warm: WarmSearch, data: bytes) -> None:
    body = json.loads(warm.answer(data=data))
    assert body["served"] is False
    assert wire.read_answer(data=warm.answer(data=data)) is None


def test_the_socket_folder_must_be_the_users_alone(tmp_path: Path) -> None:
    folder = tmp_path / "sockets"
    folder.mkdir(mode=0o700)
    assert wire.private(path=str(folder))
    folder.chmod(0o750)
    assert not wire.private(path=str(folder))
    folder.chmod(0o700)
    link = tmp_path / "link"
    link.symlink_to(folder)
    assert not wire.private(path=str(link))
    assert not wire.private(path=str(tmp_path / "missing"))
    assert os.path.isabs(warm_place.folder())
